#!/usr/bin/env node
// Launcher for the `teamchat` command: registers tsx so the TypeScript CLI runs without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../generator/cli/main.ts');
await main(process.argv.slice(2));
