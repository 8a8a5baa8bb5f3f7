/**
 * Prints openapi-typescript's declarations as TypeScript's printer does
 * (`astToString`: LF line ends, comments kept, four-space indents), for the
 * nodes its transform makes: interfaces, type aliases, property and index
 * signatures, type literals, unions, intersections, arrays, tuples, type
 * references, indexed access, literal and keyword types, and their
 * `/** ... *\/` comments. TypeScript's printer is general (name scopes, source
 * positions, emit hooks) and was about a quarter of the `types` target on
 * large documents. Any top-level declaration holding a node outside that set, a
 * node parsed from text (openapi-typescript parses its helper types) or one
 * carrying emit flags or trailing comments is printed by TypeScript's
 * printer instead, alone, so the text is the same either way
 * (`types-print.test.ts` compares the two on every fixture document).
 */
import type TS from 'typescript';

type TypeScript = typeof import('typescript');
/** Functions of TypeScript's printer that its public declarations leave out (they are exported all the same). */
interface Internals {
  getEmitFlags(node: TS.Node): number;
  escapeNonAsciiString(text: string, quote: number): string;
}

class Unsupported extends Error {}

/** The text of `nodes` as `astToString(nodes)` gives it; `fallback` prints one statement TypeScript's way. */
export function printDeclarations(ts: TypeScript, nodes: readonly TS.Node[], fallback: (node: TS.Node) => string): string {
  const parts: string[] = [];
  for (const node of nodes) {
    let text: string;
    try {
      text = new Printer(ts).statement(node);
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      text = fallback(node).replace(/\n$/, '');
    }
    parts.push(text);
  }
  return parts.length === 0 ? '' : `${parts.join('\n')}\n`;
}

const INDENT = '    ';

/** TypeScript's text writer, as far as these nodes use it. */
class Printer {
  private out = '';
  private indent = 0;
  private lineStart = true;
  private readonly k: typeof TS.SyntaxKind;
  private readonly internals: Internals;

  constructor(private readonly ts: TypeScript) {
    this.k = ts.SyntaxKind;
    this.internals = ts as unknown as Internals;
    if (typeof this.internals.getEmitFlags !== 'function' || typeof this.internals.escapeNonAsciiString !== 'function') throw new Unsupported();
  }

  statement(node: TS.Node): string {
    this.emit(node);
    return this.out;
  }

  private write(text: string): void {
    if (text.length === 0) return;
    if (this.lineStart) {
      this.out += INDENT.repeat(this.indent);
      this.lineStart = false;
    }
    this.out += text;
  }

  private rawWrite(text: string): void {
    this.out += text;
    this.lineStart = text.endsWith('\n');
  }

  private writeLine(): void {
    if (!this.lineStart) {
      this.out += '\n';
      this.lineStart = true;
    }
  }

  private emit(node: TS.Node): void {
    if (node.pos >= 0) throw new Unsupported();
    // Most nodes carry no emit node, where TypeScript keeps a node's emit flags, synthetic comments and
    // line breaks (`getEmitFlags` and the comment getters read nothing else): such a node is printed as it is.
    if ((node as { emitNode?: unknown }).emitNode === undefined) {
      this.node(node);
      return;
    }
    const ts = this.ts;
    if ( this.internals.getEmitFlags(node) !== 0 || ts.getSyntheticTrailingComments(node) !== undefined || (node as { emitNode?: { startsOnNewLine?: boolean } }).emitNode?.startsOnNewLine) {
      throw new Unsupported();
    }
    const comments = ts.getSyntheticLeadingComments(node);
    if (comments !== undefined) for (const comment of comments) this.comment(comment);
    this.node(node);
  }

  /** `emitLeadingSynthesizedComment` and `writeCommentRange` for one comment. */
  private comment(comment: TS.SynthesizedComment): void {
    if (comment.kind !== this.k.MultiLineCommentTrivia || comment.hasLeadingNewline) throw new Unsupported();
    const text = `/*${comment.text}*/`;
    if (text.charCodeAt(2) === 42 /* * */) {
      const lines = text.split(/\r\n|[\r\n\u2028\u2029]/);
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i]!;
        if (i > 0) {
          const spaces = this.indent * INDENT.length + indentOf(line);
          if (spaces > 0) this.rawWrite(INDENT.repeat(Math.floor(spaces / INDENT.length)) + ' '.repeat(spaces % INDENT.length));
          else this.rawWrite('');
        }
        const trimmed = line.trim();
        if (trimmed !== '') {
          this.write(trimmed);
          if (i < lines.length - 1) this.writeLine();
        } else {
          this.rawWrite('\n');
        }
      }
    } else {
      this.write(text);
    }
    if (comment.hasTrailingNewLine) this.writeLine();
    else this.write(' ');
  }

  private node(node: TS.Node): void {
    const ts = this.ts;
    const k = this.k;
    switch (node.kind) {
      case k.InterfaceDeclaration: {
        const n = node as TS.InterfaceDeclaration;
        if (n.typeParameters !== undefined || n.heritageClauses !== undefined) throw new Unsupported();
        this.modifiers(n.modifiers);
        this.write('interface ');
        this.emit(n.name);
        this.write(' {');
        this.lines(n.members, false);
        this.write('}');
        return;
      }
      case k.TypeAliasDeclaration: {
        const n = node as TS.TypeAliasDeclaration;
        if (n.typeParameters !== undefined) throw new Unsupported();
        this.modifiers(n.modifiers);
        this.write('type ');
        this.emit(n.name);
        this.write(' = ');
        this.emit(n.type);
        this.write(';');
        return;
      }
      case k.PropertySignature: {
        const n = node as TS.PropertySignature;
        this.modifiers(n.modifiers);
        this.emit(n.name);
        if (n.questionToken !== undefined) this.emit(n.questionToken);
        if (n.type !== undefined) {
          this.write(': ');
          this.emit(n.type);
        }
        this.write(';');
        return;
      }
      case k.IndexSignature: {
        const n = node as TS.IndexSignatureDeclaration;
        this.modifiers(n.modifiers);
        this.write('[');
        this.inline(n.parameters, ', ');
        this.write(']');
        this.write(': ');
        this.emit(n.type);
        this.write(';');
        return;
      }
      case k.Parameter: {
        const n = node as TS.ParameterDeclaration;
        if (n.modifiers !== undefined || n.dotDotDotToken !== undefined || n.initializer !== undefined) throw new Unsupported();
        this.emit(n.name);
        if (n.questionToken !== undefined) this.emit(n.questionToken);
        if (n.type !== undefined) {
          this.write(': ');
          this.emit(n.type);
        }
        return;
      }
      case k.TypeLiteral: {
        const members = (node as TS.TypeLiteralNode).members;
        this.write('{');
        if (members.length > 0) this.lines(members, false);
        this.write('}');
        return;
      }
      case k.TupleType: {
        const elements = (node as TS.TupleTypeNode).elements;
        // Multi-line even when empty, as TypeScript prints a tuple without emit flags.
        this.write('[');
        this.lines(elements, true);
        this.write(']');
        return;
      }
      case k.UnionType:
        this.inline((node as TS.UnionTypeNode).types, ' | ', (t) => this.unionMember(t));
        return;
      case k.IntersectionType:
        this.inline((node as TS.IntersectionTypeNode).types, ' & ', (t) => this.intersectionMember(t));
        return;
      case k.ArrayType:
        this.postfixOperand((node as TS.ArrayTypeNode).elementType);
        this.write('[]');
        return;
      case k.IndexedAccessType: {
        const n = node as TS.IndexedAccessTypeNode;
        this.postfixOperand(n.objectType);
        this.write('[');
        this.emit(n.indexType);
        this.write(']');
        return;
      }
      case k.ParenthesizedType:
        this.write('(');
        this.emit((node as TS.ParenthesizedTypeNode).type);
        this.write(')');
        return;
      case k.RestType:
        this.write('...');
        this.emit((node as TS.RestTypeNode).type);
        return;
      case k.TypeOperator: {
        const n = node as TS.TypeOperatorNode;
        this.write(`${ts.tokenToString(n.operator)!} `);
        if (n.operator === k.ReadonlyKeyword && n.type.kind === k.TypeOperator) this.parenthesized(n.type);
        else this.typeOperatorOperand(n.type);
        return;
      }
      case k.TypeReference: {
        const n = node as TS.TypeReferenceNode;
        this.emit(n.typeName);
        if (n.typeArguments !== undefined) {
          this.write('<');
          this.inline(n.typeArguments, ', ');
          this.write('>');
        }
        return;
      }
      case k.LiteralType:
        this.emit((node as TS.LiteralTypeNode).literal);
        return;
      case k.Identifier:
        this.write((node as TS.Identifier).text);
        return;
      case k.StringLiteral: {
        const n = node as TS.StringLiteral & { singleQuote?: boolean; textSourceNode?: unknown };
        if (n.singleQuote === true || n.textSourceNode !== undefined) throw new Unsupported();
        this.write(`"${this.internals.escapeNonAsciiString(n.text, 34 /* " */)}"`);
        return;
      }
      case k.NumericLiteral:
        this.write((node as TS.NumericLiteral).text);
        return;
      case k.PrefixUnaryExpression: {
        const n = node as TS.PrefixUnaryExpression;
        if (n.operator !== k.MinusToken || n.operand.kind !== k.NumericLiteral) throw new Unsupported();
        this.write('-');
        this.emit(n.operand);
        return;
      }
      case k.QuestionToken:
        this.write('?');
        return;
      case k.ExportKeyword:
      case k.ReadonlyKeyword:
      case k.TrueKeyword:
      case k.FalseKeyword:
      case k.NullKeyword:
      case k.StringKeyword:
      case k.NumberKeyword:
      case k.BooleanKeyword:
      case k.UnknownKeyword:
      case k.NeverKeyword:
      case k.AnyKeyword:
      case k.UndefinedKeyword:
      case k.ObjectKeyword:
      case k.BigIntKeyword:
      case k.VoidKeyword:
      case k.SymbolKeyword:
        this.write(ts.tokenToString(node.kind)!);
        return;
      default:
        throw new Unsupported();
    }
  }

  private modifiers(modifiers: TS.NodeArray<TS.ModifierLike> | undefined): void {
    if (modifiers === undefined) return;
    for (const modifier of modifiers) {
      this.emit(modifier);
      this.write(' ');
    }
  }

  /** A list on one line, `separator` between items (unions, intersections, parameters, type arguments). */
  private inline<T extends TS.Node>(items: readonly T[], separator: string, emit?: (item: T) => void): void {
    for (let index = 0; index < items.length; index++) {
      if (index > 0) this.write(separator);
      if (emit === undefined) this.emit(items[index]!);
      else emit(items[index]!);
    }
  }

  /** A list one item a line, indented (members; tuple elements with commas). */
  private lines(items: readonly TS.Node[], commas: boolean): void {
    this.writeLine();
    this.indent += 1;
    for (let index = 0; index < items.length; index++) {
      if (index > 0) {
        if (commas) this.write(',');
        this.writeLine();
      }
      this.emit(items[index]!);
    }
    this.indent -= 1;
    this.writeLine();
  }

  private parenthesized(node: TS.Node): void {
    this.write('(');
    this.emit(node);
    this.write(')');
  }

  /** `parenthesizeConstituentTypeOfUnionType` */
  private unionMember(node: TS.TypeNode): void {
    const k = this.k;
    if (node.kind === k.UnionType || node.kind === k.IntersectionType || node.kind === k.FunctionType || node.kind === k.ConstructorType || node.kind === k.ConditionalType) this.parenthesized(node);
    else this.emit(node);
  }

  /** `parenthesizeConstituentTypeOfIntersectionType`: for these nodes, the union rule. */
  private intersectionMember(node: TS.TypeNode): void {
    this.unionMember(node);
  }

  /** `parenthesizeOperandOfTypeOperator`: for these nodes, the union rule. */
  private typeOperatorOperand(node: TS.TypeNode): void {
    this.unionMember(node);
  }

  /** `parenthesizeNonArrayTypeOfPostfixType` */
  private postfixOperand(node: TS.TypeNode): void {
    const k = this.k;
    if (node.kind === k.InferType || node.kind === k.TypeOperator || node.kind === k.TypeQuery) this.parenthesized(node);
    else this.unionMember(node);
  }
}

/** Columns of a line's leading white space, a tab reaching the next multiple of four (`calculateIndent`). */
function indentOf(line: string): number {
  let column = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 9) column += INDENT.length - (column % INDENT.length);
    else if (c === 32) column += 1;
    else if (c === 11 || c === 12 || c === 0x85 || c === 160 || c === 0x1680 || (c >= 0x2000 && c <= 0x200b) || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff) column += 1;
    else break;
  }
  return column;
}
