/**
 * A small builder for the statements of generated functions. Emitters return
 * trees of statements, never text to be edited afterwards: control flow is a
 * node (`if`, a block, `return`), so unreachable code is found on the tree,
 * and where a check stops is one `exit` node that each function prints its
 * own way (`return;` in a check, `return true;` in a part of one).
 */

/** A statement. A string is one simple statement that never leaves the function. */
export type Stmt = string | IfStmt | BlockStmt | ReturnStmt | ExitStmt;

export interface IfStmt {
  kind: 'if';
  cond: string;
  then: Stmt[];
  else: Stmt[];
}

/**
 * A braced block: `head { body }tail`. `flow` says how control leaves it:
 * `plain` (a bare block) leaves when its body does; a loop, a switch or one
 * of its cases, or a function expression never counts as leaving.
 */
export interface BlockStmt {
  kind: 'block';
  head: string;
  body: Stmt[];
  tail: string;
  flow: 'plain' | 'loop' | 'switch' | 'function';
}

export interface ReturnStmt {
  kind: 'return';
  value?: string;
}

/** Where a collecting check stops: printed by the enclosing function (`return;`, or `return true;` in a part). */
export interface ExitStmt {
  kind: 'exit';
}

export const EXIT: ExitStmt = { kind: 'exit' };

export function ret(value?: string): ReturnStmt {
  return value === undefined ? { kind: 'return' } : { kind: 'return', value };
}

/** `if (cond) { then } else { otherwise }`, as a one-statement list. */
export function ifBlock(cond: string, then: Stmt[], otherwise: Stmt[] = []): Stmt[] {
  return [{ kind: 'if', cond, then, else: otherwise }];
}

export function block(head: string, body: Stmt[], flow: BlockStmt['flow'] = 'plain', tail = ''): BlockStmt {
  return { kind: 'block', head, body, tail, flow };
}

/** A condition and its negation as a person would write them. */
export interface Guard {
  test: string;
  negated: string;
}

/** `test` with `!( )` around it as its negation, unless told a simpler one. */
export function guard(test: string, negated = `!(${test})`): Guard {
  return { test, negated };
}

/**
 * `stmts` without what follows a statement that always leaves the function:
 * a `return`, an exit, an `if` whose branches both do, or a bare block whose
 * body does. A check that can never pass (a required property whose schema
 * accepts nothing) fails unconditionally, and TypeScript does not narrow
 * values in unreachable code, where checks would fail to type-check.
 */
export function withoutDeadCode(stmts: readonly Stmt[]): Stmt[] {
  return prune(stmts).stmts;
}

function prune(stmts: readonly Stmt[]): { stmts: Stmt[]; leaves: boolean } {
  const out: Stmt[] = [];
  for (const stmt of stmts) {
    const pruned = pruneOne(stmt);
    out.push(pruned.stmt);
    if (pruned.leaves) return { stmts: out, leaves: true };
  }
  return { stmts: out, leaves: false };
}

function pruneOne(stmt: Stmt): { stmt: Stmt; leaves: boolean } {
  if (typeof stmt === 'string') return { stmt, leaves: false };
  switch (stmt.kind) {
    case 'return':
    case 'exit':
      return { stmt, leaves: true };
    case 'if': {
      const then = prune(stmt.then);
      const otherwise = prune(stmt.else);
      return { stmt: { ...stmt, then: then.stmts, else: otherwise.stmts }, leaves: then.leaves && stmt.else.length > 0 && otherwise.leaves };
    }
    case 'block': {
      const body = prune(stmt.body);
      return { stmt: { ...stmt, body: body.stmts }, leaves: stmt.flow === 'plain' && body.leaves };
    }
  }
}

/** Whether the statements can never complete normally (they always leave the function). */
export function alwaysLeaves(stmts: readonly Stmt[]): boolean {
  return prune(stmts).leaves;
}

/**
 * The statements as lines of source, indented two spaces per level, dead
 * code removed. `exit` is what an exit node prints in this function.
 */
export function print(stmts: readonly Stmt[], exit = 'return;', depth = 0): string[] {
  const lines: string[] = [];
  emit(withoutDeadCode(stmts), exit, depth, lines);
  return lines;
}

function emit(stmts: readonly Stmt[], exit: string, depth: number, lines: string[]): void {
  const pad = '  '.repeat(depth);
  for (const stmt of stmts) {
    if (typeof stmt === 'string') {
      lines.push(pad + stmt);
      continue;
    }
    switch (stmt.kind) {
      case 'return':
        lines.push(pad + (stmt.value === undefined ? 'return;' : `return ${stmt.value};`));
        break;
      case 'exit':
        lines.push(pad + exit);
        break;
      case 'block':
        lines.push(pad + (stmt.head === '' ? '{' : `${stmt.head} {`));
        // A function expression's exits are its own; none are printed through it.
        emit(stmt.body, exit, depth + 1, lines);
        lines.push(`${pad}}${stmt.tail}`);
        break;
      case 'if': {
        const inner = stmt.then[0];
        if (stmt.else.length === 0 && stmt.then.length === 1 && typeof inner !== 'string' && inner!.kind === 'if' && inner!.else.length === 0) {
          // `if (a) { if (b) x }` is `if (a && b) x`: an optional property's check reads as one condition.
          emit([{ ...inner!, cond: `${conjunct(stmt.cond)} && ${conjunct(inner!.cond)}` }], exit, depth, lines);
          break;
        }
        if (stmt.else.length > 0 && alwaysLeaves(stmt.then)) {
          // What follows a branch that always leaves needs no `else`: `if (a) return false;` then the rest, one level up.
          emit([{ ...stmt, else: [] }, ...stmt.else], exit, depth, lines);
          break;
        }
        const only = stmt.then[0];
        if (stmt.else.length === 0 && stmt.then.length === 1 && typeof only !== 'string' && (only!.kind === 'return' || only!.kind === 'exit')) {
          // `if (cond) return x;` on one line: the common shape of a failed check.
          lines.push(`${pad}if (${stmt.cond}) ${only!.kind === 'exit' ? exit : only!.value === undefined ? 'return;' : `return ${only!.value};`}`);
          break;
        }
        lines.push(`${pad}if (${stmt.cond}) {`);
        let current: IfStmt = stmt;
        for (;;) {
          emit(current.then, exit, depth + 1, lines);
          const next = current.else;
          if (next.length === 0) break;
          const only = next[0]!;
          if (next.length === 1 && typeof only !== 'string' && only.kind === 'if') {
            lines.push(`${pad}} else if (${only.cond}) {`);
            current = only;
            continue;
          }
          lines.push(`${pad}} else {`);
          emit(next, exit, depth + 1, lines);
          break;
        }
        lines.push(`${pad}}`);
        break;
      }
    }
  }
}

/**
 * A condition as an operand of `&&`, parenthesised when it holds, outside
 * brackets and string literals, an operator that binds more loosely (`||`,
 * `??`, `?:`, an assignment or arrow, a comma). Erring towards parentheses is
 * harmless.
 */
function conjunct(cond: string): string {
  let depth = 0;
  for (let i = 0; i < cond.length; i++) {
    const c = cond[i]!;
    if (c === '"' || c === "'" || c === '`') {
      // Past the literal: to its closing quote, skipping escaped characters.
      for (i++; i < cond.length && cond[i] !== c; i++) if (cond[i] === '\\') i++;
    } else if (c === '(' || c === '[' || c === '{') {
      depth++;
    } else if (c === ')' || c === ']' || c === '}') {
      depth--;
    } else if (depth === 0 && (c === '|' || c === '?' || c === ',' || (c === '=' && !'=!<>'.includes(cond[i - 1] ?? '') && cond[i + 1] !== '='))) {
      return `(${cond})`;
    }
  }
  return cond;
}

/** A parameter of a generated function: its name and type (`?` after the name for an optional one goes in `name`). */
export type Param = readonly [name: string, type: string];

/**
 * A parameter list for a function whose body is `stmts`: a parameter the
 * body never reads is named with a leading `_`, as TypeScript's
 * `noUnusedParameters` asks (a function's signature is fixed by the type it
 * must have, whatever its body reads).
 */
export function parameterList(params: readonly Param[], stmts: readonly Stmt[]): string {
  return params
    .map(([name, type]) => {
      const bare = name.endsWith('?') ? name.slice(0, -1) : name;
      return `${reads(stmts, bare) ? '' : '_'}${name}: ${type}`;
    })
    .join(', ');
}

/**
 * Whether the statements, dead code removed, read `name`: the identifier
 * outside string literals and comments, not as a property name (`a.name`).
 */
export function reads(stmts: readonly Stmt[], name: string): boolean {
  return withoutDeadCode(stmts).some((stmt) => readsIn(stmt, name));
}

function readsIn(stmt: Stmt, name: string): boolean {
  if (typeof stmt === 'string') return !stmt.startsWith('//') && hasIdentifier(stmt, name);
  switch (stmt.kind) {
    case 'return':
      return stmt.value !== undefined && hasIdentifier(stmt.value, name);
    case 'exit':
      return false;
    case 'if':
      return hasIdentifier(stmt.cond, name) || stmt.then.some((s) => readsIn(s, name)) || stmt.else.some((s) => readsIn(s, name));
    case 'block':
      return hasIdentifier(stmt.head, name) || hasIdentifier(stmt.tail, name) || stmt.body.some((s) => readsIn(s, name));
  }
}

function isIdentifierChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_$]/.test(c);
}

/** Whether `code` holds `name` as a whole identifier, outside string literals and not after a `.`. */
function hasIdentifier(code: string, name: string): boolean {
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < code.length && code[i] !== c; i++) if (code[i] === '\\') i++;
    } else if (code.startsWith(name, i) && !isIdentifierChar(code[i - 1]) && code[i - 1] !== '.' && !isIdentifierChar(code[i + name.length])) {
      return true;
    } else if (isIdentifierChar(c)) {
      // Past the rest of this identifier: a name is only ever found at the start of one.
      while (isIdentifierChar(code[i + 1])) i++;
    }
  }
  return false;
}
