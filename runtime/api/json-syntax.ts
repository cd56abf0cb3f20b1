/**
 * Go's encoding/json syntax errors (scanner.go) for a text JSON.parse refused: the message names
 * the offending character and what the scanner expected, never the text around it. Node's
 * messages quote the input ("Unexpected token 'h', "hunter2…" is not valid JSON"), which must not
 * reach an answer or a log where Go's would not, such as a Secret's value that is not JSON.
 */

/** Go's quoteChar: the character in single quotes, escaped as strconv.Quote escapes it. */
function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  const code = c.charCodeAt(0);
  const named: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\' };
  if (named[c] !== undefined) return `'${named[c]}'`;
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, '0')}'`;
  return `'${c}'`;
}

const WS = new Set([' ', '\t', '\n', '\r']);
/** Go's scanner refuses deeper nesting (maxNestingDepth); the recursion here stays within the stack. */
const MAX_NESTING_DEPTH = 10_000;

class SyntaxFailure extends Error {}

/** Go's message for the first syntax error of `text`; undefined when it is valid JSON. */
export function goJSONSyntaxError(text: string): string | undefined {
  let i = 0;
  let depth = 0;
  const fail = (context: string): never => {
    if (i >= text.length) throw new SyntaxFailure('unexpected end of JSON input');
    throw new SyntaxFailure(`invalid character ${quoteChar(text[i]!)} ${context}`);
  };
  const skip = () => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (let k = 1; k < word.length; k++) {
      i++;
      if (text[i] !== word[k]) fail(`in literal ${word} (expecting ${quoteChar(word[k]!)})`);
    }
    i++;
  };
  const string = () => {
    i++;
    for (;;) {
      if (i >= text.length) fail('');
      const c = text[i]!;
      if (c === '"') return void i++;
      if (c < ' ') fail('in string literal');
      if (c === '\\') {
        i++;
        const e = text[i];
        if (e === 'u') {
          for (let k = 0; k < 4; k++) {
            i++;
            if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail('in \\u hexadecimal character escape');
          }
        } else if (e === undefined || !'"\\/bfnrt'.includes(e)) fail('in string escape code');
      }
      i++;
    }
  };
  const digits = () => {
    while (i < text.length && text[i]! >= '0' && text[i]! <= '9') i++;
  };
  const number = () => {
    if (text[i] === '-') {
      i++;
      if (!(text[i]! >= '0' && text[i]! <= '9')) fail('in numeric literal');
    }
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      if (!(text[i]! >= '0' && text[i]! <= '9')) fail('after decimal point in numeric literal');
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!(text[i]! >= '0' && text[i]! <= '9')) fail('in exponent of numeric literal');
      digits();
    }
  };
  const value = (): void => {
    skip();
    const c = text[i];
    if (c === '{') {
      if (++depth > MAX_NESTING_DEPTH) fail('exceeded max depth');
      i++;
      skip();
      if (text[i] === '}') return void (i++, depth--);
      for (;;) {
        skip();
        if (text[i] !== '"') fail('looking for beginning of object key string');
        string();
        skip();
        if (text[i] !== ':') fail('after object key');
        i++;
        value();
        skip();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') return void (i++, depth--);
        fail('after object key:value pair');
      }
    }
    if (c === '[') {
      if (++depth > MAX_NESTING_DEPTH) fail('exceeded max depth');
      i++;
      skip();
      if (text[i] === ']') return void (i++, depth--);
      for (;;) {
        value();
        skip();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') return void (i++, depth--);
        fail('after array element');
      }
    }
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    fail('looking for beginning of value');
  };
  try {
    value();
    skip();
    if (i < text.length) fail('after top-level value');
    return undefined;
  } catch (err) {
    if (err instanceof SyntaxFailure) return err.message;
    throw err;
  }
}
