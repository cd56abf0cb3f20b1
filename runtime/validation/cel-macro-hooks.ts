/**
 * What cel-js (8.0.0) hands the macro hooks kgen registers through `registerFunction('…(ast,
 * …): T', …)` (cel-comprehensions.ts, cel-optional.ts): the parts used, which are not in its
 * type declarations.
 */
import type * as CelJs from '@marcbachmann/cel-js';

export type Environment = CelJs.Environment;
export type Node = CelJs.ASTNode;

export interface CelType {
  kind: string;
  name: string;
  valueType?: CelType;
  keyType?: CelType;
  isDynOrBool(): boolean;
}

export interface Registry {
  getListType(t: CelType): CelType;
  getMapType(k: CelType, v: CelType): CelType;
  getOptionalType(t: CelType): CelType;
}

export interface Ctx {
  forkWithVariable(name: string, type: CelType): Ctx & { setIterValue(v: unknown, ev: Evaluator): unknown };
}

export interface Checker {
  check(node: Node, ctx: Ctx): CelType;
  getType(name: string): CelType;
  formatType(t: CelType): string;
  createError(code: string, message: string, node: Node): Error;
  registry: Registry;
  dynType: CelType;
  boolType: CelType;
}

export interface Evaluator {
  run(node: Node, ctx: unknown): unknown;
  tryEval(node: Node, ctx: unknown): unknown;
  createError(code: string, message: string, node: Node): Error;
}
