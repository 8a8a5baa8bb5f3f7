#!/usr/bin/env node
// The `teamchat` command: runs the compiled CLI in dist/ (built by `npm run build`, run by prepare and prepack).
let main;
try {
  ({ main } = await import('../dist/generator/cli/main.js'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/generator/cli/main.js')) throw error;
  process.stderr.write('teamchat: the compiled CLI is missing (dist/); run `npm run build` in the teamchat-api folder\n');
  process.exit(1);
}
await main(process.argv.slice(2));
