// Preloaded (NODE_OPTIONS=--require) into every Node process a generation run starts, child
// processes included: at exit each appends its CPU time (user + system, every thread, in ms)
// to the file the bench names, which sums them. Under load CPU time moves far less than wall time.
'use strict';
const file = process.env.TEAMCHAT_BENCH_CPU_FILE;
if (file) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    require('node:fs').appendFileSync(file, `${(user + system) / 1000}\n`);
  });
}
