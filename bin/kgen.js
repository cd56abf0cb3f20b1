#!/usr/bin/env node
// kgen runs its TypeScript sources, and the TypeScript it generates, through tsx: no build step.
import { register } from 'tsx/esm/api';

register();
await import('../cli/index.ts');
