/**
 * Reads the users' conversion files: `<apis>/<group>/<version>/conversion.ts` holds the
 * hand-written conversion functions between that version and the storage version (kube's
 * `Convert_<from>_<Type>_To_<to>_<Type>` in the version package). The file is not an API types
 * file: the parser skips it, and only its exported `Convert_*` names matter to the generator
 * (their types are checked by tsc, against the generated models, where the generated code calls them),
 * and whether they declare the third parameter, the ConversionScope the generated code then passes.
 */
import { basename } from 'node:path';
import type ts from 'typescript';
import { isFunctionDeclaration, isVariableStatement } from './nodes.js';
import type { ConversionFile, ConversionFunction } from '../model.js';
import { isExported, memberName } from './declarations.js';
import type { IndexedFile } from './files.js';
import { nodeLocation } from './jsdoc.js';

export const CONVERSION_FILE = 'conversion.ts';

export function isConversionFile(path: string): boolean {
  return basename(path) === CONVERSION_FILE;
}

/** The exported `Convert_*` functions (declarations or consts) of one conversion file. */
export function readConversionFile(file: IndexedFile): ConversionFile {
  const functions: ConversionFunction[] = [];
  const sf = file.sourceFile;
  for (const stmt of sf.statements) {
    if (isFunctionDeclaration(stmt) && isExported(stmt, sf)) {
      const name = stmt.name?.getText(sf);
      if (name?.startsWith('Convert_')) functions.push(withScope({ name, loc: nodeLocation(stmt.name ?? stmt, sf) }, stmt.parameters));
    } else if (isVariableStatement(stmt) && isExported(stmt, sf)) {
      for (const decl of stmt.declarationList.declarations) {
        const name = memberName(decl, sf);
        const init = decl.initializer as ts.SignatureDeclarationBase | undefined;
        if (name.startsWith('Convert_')) functions.push(withScope({ name, loc: nodeLocation(decl, sf) }, init?.parameters));
      }
    }
  }
  return { path: file.path, group: file.group, version: file.version, functions };
}

/** A function declared with (src, out, scope) is called with the scope (a (src, out) one is not: tsc would refuse the extra argument). */
function withScope(fn: ConversionFunction, parameters: ts.NodeArray<ts.ParameterDeclaration> | undefined): ConversionFunction {
  return (parameters?.length ?? 0) >= 3 ? { ...fn, takesScope: true } : fn;
}
