// Preloaded (NODE_OPTIONS=--require) into every Node process a generation run starts, child
// processes included: at exit each appends its CPU time (user + system, every thread, in ms)
// to the file the bench names, which sums them. Under load CPU time moves far less than wall time.
'use strict';
const file = process.env.TEAMCHAT_BENCH_CPU_FILE;
// A worker thread runs the preload too, and its process.cpuUsage() is the whole process's: only the
// main thread reports, once, at the process's exit (the types thread's CPU was counted twice before).
if (file && require('node:worker_threads').isMainThread) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    require('node:fs').appendFileSync(file, `${(user + system) / 1000}\n`);
  });
}
