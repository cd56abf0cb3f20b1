/**
 * How often V8's own RegExp engine ran each of these Go patterns on `value` while fn ran: every
 * run of a V8 RegExp (test, match, matchAll, replace) goes through RegExp.prototype.exec once it
 * is replaced; re2js's RegExps (runtime/validation/re2.ts, LinearRegExp) never reach it. (compileRE2
 * runs V8 once on '' to refuse a pattern V8 cannot hold: not a run on the value.) A hostile value
 * that V8 never ran a backtracking pattern on is the proof that it took linear time.
 */
import { translateRE2 } from '../../runtime/validation/re2.js';

export function v8RunsOf(patterns: string[], value: string, fn: () => void): number[] {
  const sources = patterns.map((p) => translateRE2(p).source);
  const runs = patterns.map(() => 0);
  const exec = RegExp.prototype.exec;
  RegExp.prototype.exec = function (this: RegExp, s: string) {
    const i = sources.indexOf(this.source);
    if (i >= 0 && s === value) runs[i]!++;
    return exec.call(this, s);
  };
  try {
    fn();
  } finally {
    RegExp.prototype.exec = exec;
  }
  return runs;
}
