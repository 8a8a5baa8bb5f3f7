/**
 * The registry: every output target, in the order they run and report.
 * Adding a target means adding its folder under `generator/targets/` and one
 * line here.
 */
import { target as client } from './client/index.js';
import { target as clientPackage } from './client-package/index.js';
import { target as docs } from './docs/index.js';
import { target as server } from './server/index.js';
import { target as query } from './query/index.js';
import type { Target } from './types.js';
import { target as types } from './types/index.js';
import { target as validators } from './validators/index.js';

export const targets: readonly Target[] = [types, validators, client, query, clientPackage, server, docs];

export const targetNames: readonly string[] = targets.map((t) => t.name);
