/** API evolution: the current model against a baseline snapshot (README: "Evolving an API"). */
export { changeDiagnostics, isBreaking, severityOf, type ApiChange, type ChangeType } from './changes.js';
export { diffModels, type Baseline } from './model-diff.js';
export { BaselineError, loadBaseline, readSnapshotDir, type LoadedBaseline } from './baseline.js';
