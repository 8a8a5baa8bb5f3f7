// Lint rules for the conventions of docs/decisions/0001-spec-conventions.md
// that Redocly's built-in rules do not cover. The generator trusts these
// shapes, so a violation here would otherwise surface as a confusing
// generator error or a wrong docs page.

const isInteger = (value) => typeof value === 'number' && Number.isInteger(value);
const isText = (value) => typeof value === 'string' && value.trim() !== '';

function OperationComplete() {
  return {
    Operation: {
      enter(operation, ctx) {
        if (!isText(operation.operationId)) {
          ctx.report({ message: 'Operation must have an `operationId`.', location: ctx.location.key() });
        }
        if (!isText(operation.summary)) {
          ctx.report({ message: 'Operation must have a `summary`.', location: ctx.location.key() });
        }
        if (!Array.isArray(operation.tags) || operation.tags.length === 0) {
          ctx.report({ message: 'Operation must have at least one tag.', location: ctx.location.key() });
        }
        const codes = Object.keys(operation.responses ?? {});
        if (!codes.some((code) => /^2(\d\d|XX)$/.test(code))) {
          ctx.report({ message: 'Operation must have a 2xx response.', location: ctx.location.child('responses') });
        }
        if (!codes.some((code) => /^4(\d\d|XX)$/.test(code))) {
          ctx.report({ message: 'Operation must have at least one 4xx response.', location: ctx.location.child('responses') });
        }
      },
    },
  };
}

// Named examples feed the docs pages, the scaffolded mock handlers and the
// example tests; a single unnamed `example` would be invisible to all three.
function ResponseExamples() {
  return {
    Response: {
      enter(response, ctx) {
        const content = response.content ?? {};
        if (Object.keys(content).length === 0) {
          ctx.report({ message: 'Response must have a body with a named example.', location: ctx.location.key() });
          return;
        }
        for (const [mediaType, media] of Object.entries(content)) {
          const where = ctx.location.child(['content', mediaType]);
          if (media.example !== undefined) {
            ctx.report({ message: 'Use named `examples` instead of `example`.', location: where.child('example').key() });
          }
          const examples = media.examples;
          if (examples === null || typeof examples !== 'object' || Object.keys(examples).length === 0) {
            ctx.report({ message: `Response media type \`${mediaType}\` must have at least one named example.`, location: where.key() });
          }
        }
      },
    },
  };
}

function checkChanges(changes, ctx) {
  const where = ctx.location.child('x-changes');
  if (!Array.isArray(changes)) {
    ctx.report({ message: '`x-changes` must be a list of `{level, change}` entries.', location: where });
    return;
  }
  changes.forEach((entry, index) => {
    const at = where.child(index);
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      ctx.report({ message: '`x-changes` entry must be an object with `level` and `change`.', location: at });
      return;
    }
    if (!isInteger(entry.level)) {
      ctx.report({ message: '`x-changes` entry needs an integer `level`.', location: at });
    }
    if (!isText(entry.change)) {
      ctx.report({ message: '`x-changes` entry needs a non-empty string `change`.', location: at });
    }
    for (const key of Object.keys(entry)) {
      if (key !== 'level' && key !== 'change') {
        ctx.report({ message: `Unknown key \`${key}\` in an \`x-changes\` entry.`, location: at.child(key).key() });
      }
    }
  });
}

// Feature-level extensions may sit on any node (operation, parameter,
// schema, property), so this rule inspects every node of the document.
function FeatureExtensions() {
  return {
    any: {
      enter(node, ctx) {
        if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
        if ('x-feature-level' in node && !(isInteger(node['x-feature-level']) && node['x-feature-level'] >= 0)) {
          ctx.report({ message: '`x-feature-level` must be a non-negative integer.', location: ctx.location.child('x-feature-level') });
        }
        if ('x-changes' in node) checkChanges(node['x-changes'], ctx);
        if ('x-unspecified' in node && !isText(node['x-unspecified'])) {
          ctx.report({ message: '`x-unspecified` must be a non-empty string.', location: ctx.location.child('x-unspecified') });
        }
      },
    },
  };
}

export default function teamchatPlugin() {
  return {
    id: 'teamchat',
    rules: {
      oas3: {
        'operation-complete': OperationComplete,
        'response-examples': ResponseExamples,
        'feature-extensions': FeatureExtensions,
      },
    },
  };
}
