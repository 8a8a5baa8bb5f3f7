/*
 * Plain parameters with a style (OpenAPI "Style Values"). Values arrive as
 * text already percent-decoded; these helpers split that text the way the
 * style wrote it (the scalars in it are read by `scalars.ts`).
 */
import { setField, type Fields } from './fields.js';

/** `a,b,c` split at `separator`; empty text is the empty list. */
export function splitText(text: string, separator: string): string[] {
  return text === '' ? [] : text.split(separator);
}

/** A header's comma list (`simple` style), each element without the spaces around it. */
export function headerList(text: string): string[] {
  if (text.trim() === '') return [];
  return text.split(',').map((element) => element.trim());
}

/** `label` style: `.5` is `5`; undefined when the leading dot is missing. */
export function labelValue(text: string): string | undefined {
  return text.charCodeAt(0) === 46 /* . */ ? text.slice(1) : undefined;
}

/** `label` style lists: `.a.b.c` (exploded) or `.a,b,c`. */
export function labelList(text: string, explode: boolean): string[] | undefined {
  const rest = labelValue(text);
  if (rest === undefined) return undefined;
  return splitText(rest, explode ? '.' : ',');
}

/** `matrix` style: `;id=5` is `5` and `;id` is empty text; undefined when the text names another parameter. */
export function matrixValue(text: string, name: string): string | undefined {
  const head = ';' + name;
  if (!text.startsWith(head)) return undefined;
  if (text.length === head.length) return '';
  return text.charCodeAt(head.length) === 61 /* = */ ? text.slice(head.length + 1) : undefined;
}

/** `matrix` style lists: `;id=1;id=2` (exploded) or `;id=1,2`. */
export function matrixList(text: string, name: string, explode: boolean): string[] | undefined {
  if (!explode) {
    const value = matrixValue(text, name);
    return value === undefined ? undefined : splitText(value, ',');
  }
  if (text === '') return [];
  if (text.charCodeAt(0) !== 59 /* ; */) return undefined;
  const list: string[] = [];
  for (const segment of text.slice(1).split(';')) {
    const value = matrixValue(';' + segment, name);
    if (value === undefined) return undefined;
    list.push(value);
  }
  return list;
}

/** Exploded `matrix` objects: `;R=100;G=200` as `R=100`, `G=200`. */
export function matrixAssignments(text: string): string[] | undefined {
  if (text === '') return [];
  if (text.charCodeAt(0) !== 59 /* ; */) return undefined;
  return text.slice(1).split(';');
}

/** Objects written as a flat list of keys and values (`R,100,G,200`); undefined when a key lacks its value. */
export function pairFields(list: readonly string[]): Fields | undefined {
  if (list.length % 2 !== 0) return undefined;
  const fields: Fields = {};
  for (let i = 0; i < list.length; i += 2) setField<string | string[]>(fields, list[i]!, list[i + 1]!);
  return fields;
}

/** Objects written as assignments (`R=100`, `G=200`); undefined when one lacks its `=`. */
export function assignedFields(list: readonly string[]): Fields | undefined {
  const fields: Fields = {};
  for (const item of list) {
    const at = item.indexOf('=');
    if (at < 1) return undefined;
    setField<string | string[]>(fields, item.slice(0, at), item.slice(at + 1));
  }
  return fields;
}
