import type { OpenApiDocument } from './openapi.document.js';
import type { JsonSchema } from './request-schemas.js';

// GET /docs: the OpenAPI document rendered as one self-contained HTML page (no scripts, no CDN: the
// gateway may run where there is no network, and merchants read it in any browser).

type Operation = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  'x-codes': number[];
  requestBody: {
    content: Record<string, { schema: JsonSchema; examples?: Record<string, { value: unknown }> }>;
  };
  responses: Record<
    string,
    { content?: Record<string, { schema: JsonSchema; examples?: Record<string, { value: unknown }> }> }
  >;
};

/** The whole page for `doc`. */
export function renderDocsPage(doc: OpenApiDocument): string {
  const info = doc['info'] as { title: string; version: string; summary: string; description: string };
  const schemas = doc.components.schemas;
  const resolve = (schema: JsonSchema): JsonSchema => {
    const ref = schema['$ref'];
    if (typeof ref === 'string') return resolve(schemas[ref.split('/').pop() ?? ''] ?? {});
    const allOf = schema['allOf'] as JsonSchema[] | undefined;
    return allOf?.[0] ? resolve(allOf[0]) : schema;
  };
  const codeTitles = new Map(
    ((schemas['Code']?.['oneOf'] ?? []) as { const: number; title: string }[]).map((c) => [c.const, c.title]),
  );

  const operations = Object.entries(doc.paths).map(([path, item]) => ({
    path,
    op: item['post'] as unknown as Operation,
  }));
  const webhooks = Object.entries((doc['webhooks'] ?? {}) as Record<string, { post: Operation }>);
  const tags = (doc['tags'] as { name: string; description: string }[]).map((t) => t.name);

  const nav = [
    '<a href="#overview">Overview</a>',
    ...tags.map(
      (tag) =>
        `<h4>${esc(tag)}</h4>${operations
          .filter(({ op }) => op.tags.includes(tag))
          .map(
            ({ path, op }) =>
              `<a href="#${op.operationId}"><code>${esc(path.replace('/gateway', ''))}</code></a>`,
          )
          .join('')}`,
    ),
    '<h4>More</h4><a href="#callbacks">Callbacks</a><a href="#schemas">Schemas</a><a href="openapi.json">openapi.json</a>',
  ].join('');

  const operationHtml = operations
    .map(({ path, op }) => {
      const body = op.requestBody.content['application/json'];
      const reply = op.responses['200']?.content?.['application/json'];
      const data = reply ? ((reply.schema['properties'] as Record<string, JsonSchema>)['data'] ?? {}) : {};
      return `<section id="${op.operationId}">
<h2><span class="verb">POST</span> <code>${esc(path)}</code></h2>
<p class="summary">${esc(op.summary)}</p>
${markdown(op.description)}
<h3>Request body</h3>
${fieldTable(body ? resolve(body.schema) : {}, resolve)}
${examples(body?.examples)}
<h3>Reply <code>data</code></h3>
<p>${dataLabel(data)}</p>
<h3>Codes</h3>
<ul class="codes">${op['x-codes'].map((c) => `<li><code>${c}</code> ${esc(codeTitles.get(c) ?? '')}</li>`).join('')}</ul>
${examples(reply?.examples)}
</section>`;
    })
    .join('\n');

  const webhookHtml = webhooks
    .map(([name, { post }]) => {
      const body = post.requestBody.content['application/json'];
      return `<section id="webhook-${esc(name)}">
<h3>${esc(post.summary)} <small>(<code>${esc(name)}</code>)</small></h3>
${markdown(post.description)}
${fieldTable(body ? resolve(body.schema) : {}, resolve)}
${examples(body?.examples)}
</section>`;
    })
    .join('\n');

  const schemaHtml = Object.entries(schemas)
    .filter(([name]) => name !== 'Code' && name !== 'CommonParams')
    .map(
      ([name, schema]) => `<section id="schema-${esc(name)}">
<h3>${esc(name)}</h3>
${schema['description'] ? markdown(String(schema['description'])) : ''}
${schema['enum'] ? `<p>One of ${(schema['enum'] as string[]).map((v) => `<code>${esc(v)}</code>`).join(', ')}.</p>` : fieldTable(schema, resolve)}
</section>`,
    )
    .join('\n');

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(info.title)} ${esc(info.version)}</title>
<style>${CSS}</style>
</head>
<body>
<nav>${nav}</nav>
<main>
<section id="overview">
<h1>${esc(info.title)} <small>${esc(info.version)}</small></h1>
<p class="summary">${esc(info.summary)}</p>
${markdown(info.description)}
</section>
${operationHtml}
<section id="callbacks"><h2>Callbacks</h2></section>
${webhookHtml}
<section id="schemas"><h2>Schemas</h2></section>
${schemaHtml}
<footer>Generated from the gateway’s own validation schemas. Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI 3.1).</footer>
</main>
</body>
</html>
`;
}

function dataLabel(schema: JsonSchema): string {
  const anyOf = schema['anyOf'] as JsonSchema[] | undefined;
  const main = anyOf?.[0] ?? schema;
  if (main['type'] === 'null') return '<code>null</code> on success.';
  if (main['type'] === 'array')
    return `An array of ${typeLink((main['items'] ?? {}) as JsonSchema)}; null on a failure.`;
  return `${typeLink(main)}; null on a failure.`;
}

function typeLink(schema: JsonSchema): string {
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    const name = ref.split('/').pop() ?? '';
    return `<a href="#schema-${esc(name)}">${esc(name)}</a>`;
  }
  const allOf = schema['allOf'] as JsonSchema[] | undefined;
  if (allOf?.[0]) return typeLink(allOf[0]);
  if (schema['type'] === 'array') return `${typeLink((schema['items'] ?? {}) as JsonSchema)}[]`;
  const type = Array.isArray(schema['type'])
    ? (schema['type'] as string[]).join(' | ')
    : String(schema['type'] ?? 'any');
  return esc(schema['format'] ? `${type} (${String(schema['format'])})` : type);
}

function fieldTable(schema: JsonSchema, resolve: (s: JsonSchema) => JsonSchema): string {
  const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema['required'] ?? []) as string[]);
  const rows = Object.entries(properties).map(([name, property]) => {
    // An optional field is `anyOf: [its schema, null or '']` (request-schemas.ts): show its schema.
    const branches = property['anyOf'] as JsonSchema[] | undefined;
    const absentToo = branches?.length === 2 && Array.isArray(branches[1]?.['enum']);
    const shown = absentToo ? (branches[0] as JsonSchema) : property;
    const resolved = resolve(shown);
    const type = `${typeLink(shown)}${absentToo ? ' | null' : ''}`;
    return `<tr><td><code>${esc(name)}</code></td><td>${type}</td><td>${required.has(name) ? 'yes' : ''}</td><td>${constraints(
      resolved,
    )}</td><td>${inline(String(property['description'] ?? resolved['description'] ?? ''))}</td></tr>`;
  });
  if (rows.length === 0) return '<p>Common parameters only.</p>';
  return `<table><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Constraints</th><th>Meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function constraints(s: JsonSchema): string {
  const out: string[] = [];
  if (s['minLength'] !== undefined && s['maxLength'] !== undefined)
    out.push(`length ${s['minLength']}..${s['maxLength']}`);
  else if (s['maxLength'] !== undefined) out.push(`length ≤ ${s['maxLength']}`);
  if (s['minimum'] !== undefined) out.push(`≥ ${s['minimum']}`);
  if (s['maximum'] !== undefined) out.push(`≤ ${s['maximum']}`);
  if (s['multipleOf'] !== undefined) out.push(`multiple of ${s['multipleOf']}`);
  if (s['pattern'] !== undefined) out.push(`pattern <code>${esc(String(s['pattern']))}</code>`);
  if (s['enum'] !== undefined)
    out.push(`one of ${(s['enum'] as string[]).map((v) => `<code>${esc(v)}</code>`).join(', ')}`);
  if (s['contentMediaType'] !== undefined) out.push(`JSON text`);
  return out.join('<br>');
}

function examples(list: Record<string, { summary?: string; value: unknown }> | undefined): string {
  if (!list) return '';
  return Object.entries(list)
    .map(
      ([name, e]) =>
        `<details><summary>Example: ${esc(e.summary ?? name)}</summary><pre>${esc(JSON.stringify(e.value, null, 2))}</pre></details>`,
    )
    .join('');
}

/** The markdown the document uses: headings, paragraphs, lists, fenced code, tables, inline code and bold. */
export function markdown(text: string): string {
  const out: string[] = [];
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (line.startsWith('```')) {
      const code: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] ?? '').startsWith('```')) code.push(lines[i++] ?? '');
      i++;
      out.push(`<pre>${esc(code.join('\n'))}</pre>`);
      continue;
    }
    const heading = /^(#{1,4}) (.*)$/.exec(line);
    if (heading) {
      const level = Math.min(6, (heading[1]?.length ?? 1) + 1);
      out.push(`<h${level}>${inline(heading[2] ?? '')}</h${level}>`);
      i++;
      continue;
    }
    if (line.startsWith('|')) {
      const rows: string[][] = [];
      while (i < lines.length && (lines[i] ?? '').startsWith('|')) {
        const cells = (lines[i] ?? '')
          .slice(1, -1)
          .split(' | ')
          .map((c) => c.trim());
        if (!cells.every((c) => /^-+$/.test(c.replaceAll('|', '').trim()))) rows.push(cells);
        i++;
      }
      const [head, ...body] = rows;
      out.push(
        `<table><thead><tr>${(head ?? []).map((c) => `<th>${inline(c)}</th>`).join('')}</tr></thead><tbody>${body
          .map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`)
          .join('')}</tbody></table>`,
      );
      continue;
    }
    const item = /^(- |\d+\. )/.exec(line);
    if (item) {
      const ordered = item[1] !== '- ';
      const items: string[] = [];
      while (i < lines.length && /^(- |\d+\. )/.test(lines[i] ?? '')) {
        items.push((lines[i] ?? '').replace(/^(- |\d+\. )/, ''));
        i++;
      }
      const tag = ordered ? 'ol' : 'ul';
      out.push(`<${tag}>${items.map((t) => `<li>${inline(t)}</li>`).join('')}</${tag}>`);
      continue;
    }
    if (line.trim() === '') {
      i++;
      continue;
    }
    const paragraph: string[] = [];
    while (
      i < lines.length &&
      (lines[i] ?? '').trim() !== '' &&
      !/^(```|#|\||- |\d+\. )/.test(lines[i] ?? '')
    ) {
      paragraph.push(lines[i++] ?? '');
    }
    out.push(`<p>${inline(paragraph.join(' '))}</p>`);
  }
  return out.join('\n');
}

function inline(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part) =>
      part.startsWith('`') && part.endsWith('`') && part.length >= 2
        ? `<code>${esc(part.slice(1, -1))}</code>`
        : esc(part).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>'),
    )
    .join('');
}

function esc(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#fff;display:flex}
nav{position:sticky;top:0;height:100vh;overflow:auto;width:250px;flex:none;padding:20px 16px;background:#f5f6f8;border-right:1px solid #e3e6ea}
nav a{display:block;padding:3px 6px;color:#1d2330;text-decoration:none;border-radius:4px;font-size:14px}
nav a:hover{background:#e6e9ee}
nav h4{margin:16px 0 4px;font-size:12px;text-transform:uppercase;letter-spacing:.05em;color:#4b5563}
main{flex:1;min-width:0;max-width:1100px;padding:24px 40px 80px}
section{padding-top:8px;border-bottom:1px solid #eef0f3;padding-bottom:16px}
h1{font-size:28px;margin:8px 0}
h2{font-size:21px;margin:28px 0 6px}
h3{font-size:16px;margin:20px 0 6px}
small{color:#4b5563;font-weight:normal}
.summary{color:#4b5563;margin-top:0}
.verb{background:#16794c;color:#fff;border-radius:4px;padding:1px 8px;font-size:14px;vertical-align:2px}
code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f1f3f5;padding:1px 4px;border-radius:3px}
pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#1f2430;color:#e6e6e6;padding:12px 14px;border-radius:6px;overflow:auto;white-space:pre-wrap;word-break:break-all}
table{border-collapse:collapse;width:100%;margin:8px 0;font-size:14px}
th,td{border:1px solid #e3e6ea;padding:5px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#f5f6f8}
ul.codes{columns:2;padding-left:18px}
details{margin:8px 0}
summary{cursor:pointer;color:#2453a6}
footer{margin-top:40px;color:#4b5563;font-size:13px}
@media (max-width:800px){body{display:block}nav{position:static;width:auto;height:auto}main{padding:16px}table{table-layout:fixed}th,td{padding:4px}ul.codes{columns:1}}
`;
