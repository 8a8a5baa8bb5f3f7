/**
 * Code playground settings. The URL template must be an RFC 6570 template
 * with exactly one expression variable, `code`, and no modifier (a prefix
 * modifier would cut the code, an explode one means nothing for a string);
 * expanded, it must be an absolute http(s) URL, since clients open it.
 */
import { parse as parseTemplate } from 'uri-template';
import { ApiError } from '../errors.js';

const ONE_CODE_VARIABLE = 'url_template must contain exactly one variable, named code';

export function checkPlaygroundUrlTemplate(urlTemplate: string): void {
  let template: ReturnType<typeof parseTemplate>;
  try {
    template = parseTemplate(urlTemplate);
  } catch {
    throw new ApiError('BAD_REQUEST', 'url_template is not a valid RFC 6570 URL template');
  }
  const variables = template.ast.parts.flatMap((part) => (part.type === 'expression' ? part.variables : []));
  if (variables.length !== 1 || variables[0]!.name !== 'code') throw new ApiError('BAD_REQUEST', ONE_CODE_VARIABLE);
  if (variables[0]!.modifier) throw new ApiError('BAD_REQUEST', 'The code variable of url_template takes no modifier');
  let url: URL;
  try {
    url = new URL(template.expand({ code: 'print(1)' }));
  } catch {
    throw new ApiError('BAD_REQUEST', 'url_template must expand to an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ApiError('BAD_REQUEST', 'url_template must be an http or https URL');
}

/** A trimmed, non-empty text parameter. */
export function requiredText(value: string, parameter: string): string {
  const text = value.trim();
  if (text === '') throw new ApiError('BAD_REQUEST', `${parameter} must not be empty`);
  return text;
}
