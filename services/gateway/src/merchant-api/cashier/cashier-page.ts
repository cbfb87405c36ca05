import { type Language, MESSAGES, type Messages } from './cashier-i18n.js';
import { CASHIER_SCRIPT } from './cashier-script.js';
import { type CashierView, formatPesos, groupClabe, phaseOf, plainPesos } from './cashier-view.js';

/** After a payment, the payer reads the confirmation this long before going back to the shop. */
export const RETURN_DELAY_MS = 5_000;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** JSON inside a <script> data block: `<` escaped so no value can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The Content-Security-Policy of every cashier page: nothing but this response's own nonce'd style and script. */
export function cashierCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const STYLE = `
:root{color-scheme:light dark;--bg:#eef1f5;--card:#fff;--text:#111827;--muted:#4b5563;--border:#cbd2db;
--accent:#0a58b0;--accent-text:#fff;--ok-bg:#e6f4ea;--ok:#0d5a28;--bad-bg:#fdecec;--bad:#8a1c1c;--focus:#b45309}
@media (prefers-color-scheme:dark){:root{--bg:#0e1116;--card:#191d24;--text:#f3f4f6;--muted:#c3c9d2;
--border:#3b424d;--accent:#8cc2ff;--accent-text:#08111f;--ok-bg:#0f2d1a;--ok:#94e2ad;--bad-bg:#3b1515;--bad:#ffbdbd;--focus:#fbbf24}}
*{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
.skip{position:absolute;left:-999px;top:0;background:var(--card);color:var(--text);padding:.5rem 1rem}
.skip:focus{left:.5rem;top:.5rem}
main{max-width:34rem;margin:0 auto;padding:1rem}
.card{background:var(--card);border:1px solid var(--border);border-radius:12px;padding:1.25rem}
.top{display:flex;justify-content:space-between;align-items:baseline;gap:1rem;flex-wrap:wrap;margin-bottom:.5rem}
.merchant{margin:0;font-weight:600;color:var(--muted);overflow-wrap:anywhere}
h1{font-size:1.4rem;line-height:1.25;margin:.25rem 0 .75rem}
h1:focus{outline:none}
p{margin:.5rem 0}
a{color:var(--accent)}
a:focus-visible,button:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
dl{margin:1rem 0;display:grid;gap:.85rem}
.row{border-top:1px solid var(--border);padding-top:.75rem}
dt{font-size:.875rem;color:var(--muted);margin-bottom:.15rem}
dd{margin:0;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;overflow-wrap:anywhere}
.big{font-size:1.3rem;font-weight:700}
.mono{font-family:ui-monospace,"SFMono-Regular","DejaVu Sans Mono",Menlo,Consolas,monospace;letter-spacing:.02em}
button{font:inherit;font-size:.9rem;min-height:44px;min-width:44px;padding:.4rem .9rem;border-radius:8px;
border:1px solid var(--accent);background:var(--accent);color:var(--accent-text);cursor:pointer}
.status{margin-top:1rem;padding:.75rem 1rem;border-radius:8px;background:var(--bg);border:1px solid var(--border)}
.paid{background:var(--ok-bg);color:var(--ok);border-color:var(--ok)}
.ended{background:var(--bad-bg);color:var(--bad);border-color:var(--bad)}
.steps{padding-left:1.25rem;margin:.75rem 0 0;color:var(--muted)}
.steps li{margin:.25rem 0}
.action{display:inline-flex;align-items:center;min-height:44px;font-weight:600}
footer{margin-top:1rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

/** `ms` as `1 d 02:03:04` or `02:03:04`; the browser script formats the same way. */
export function formatRemaining(ms: number, days: string): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(total / 86_400);
  const two = (n: number) => String(n).padStart(2, '0');
  const clock = `${two(Math.floor((total % 86_400) / 3600))}:${two(Math.floor((total % 3600) / 60))}:${two(total % 60)}`;
  return d > 0 ? `${d} ${days} ${clock}` : clock;
}

function formatDeadline(date: Date, m: Messages, timeZone: string): string {
  return new Intl.DateTimeFormat(m.locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  }).format(date);
}

function statusLine(view: CashierView, m: Messages): string {
  switch (phaseOf(view.status)) {
    case 'open':
      return view.status === 'progress' ? m.progress : m.waiting;
    case 'paid':
      return m.paidHeading;
    case 'ended':
      return m.endedHeading;
  }
}

function endedReason(view: CashierView, m: Messages): string {
  const status = view.status;
  return status === 'close' || status === 'cancel' || status === 'fail' || status === 'timeout'
    ? m.ended[status]
    : '';
}

function shell(opts: { lang: Language; nonce: string; title: string; body: string }): string {
  const m = MESSAGES[opts.lang];
  return `<!doctype html>
<html lang="${m.htmlLang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${esc(opts.title)}</title>
<style nonce="${opts.nonce}">${STYLE}</style>
</head>
<body>
${opts.body}
</body>
</html>
`;
}

/** The payer's page for one order, in `lang`, with what it needs to follow the order live. */
export function renderCashierPage(opts: {
  view: CashierView;
  lang: Language;
  nonce: string;
  /** Relative URL of this order's status endpoint (token included). */
  statusUrl: string;
  /** Relative URL of this page in the other language. */
  otherLanguageUrl: string;
  timeZone: string;
  now: number;
}): string {
  const { view, lang } = opts;
  const m = MESSAGES[lang];
  const other = lang === 'es' ? MESSAGES.en : MESSAGES.es;
  const phase = phaseOf(view.status);
  const remainingMs = view.expiresAt ? view.expiresAt.getTime() - opts.now : null;
  const heading = phase === 'open' ? m.heading : phase === 'paid' ? m.paidHeading : m.endedHeading;
  const statusClass = phase === 'open' ? 'status' : `status ${phase}`;
  // Once paid, the way back is the return link, which carries the payment's outcome.
  const quitUrl = phase === 'paid' ? undefined : view.quitUrl;
  const data = {
    status: view.status,
    phase,
    statusUrl: opts.statusUrl,
    remainingMs,
    returnUrl: phase === 'paid' ? (view.returnUrl ?? null) : null,
    returnDelayMs: RETURN_DELAY_MS,
    messages: {
      heading: m.heading,
      waiting: m.waiting,
      progress: m.progress,
      expiring: m.expiring,
      paidHeading: m.paidHeading,
      endedHeading: m.endedHeading,
      ended: m.ended,
      copied: m.copied,
      copyFailed: m.copyFailed,
      days: m.days,
    },
  };

  const row = (label: string, value: string) =>
    `<div class="row"><dt>${esc(label)}</dt><dd>${value}</dd></div>`;
  const fields = [
    row(m.payTo, `<span id="f-merchant">${esc(view.merchantName)}</span>`),
    view.title ? row(m.concept, `<span id="f-title">${esc(view.title)}</span>`) : '',
    row(
      m.amount,
      `<span id="f-amount" class="big">$${formatPesos(view.amountCentavos)} MXN</span>` +
        `<button type="button" class="copy" data-copy="${plainPesos(view.amountCentavos)}" aria-label="${esc(m.copyAmountLabel)}">${esc(m.copy)}</button>`,
    ),
    row(
      m.clabe,
      `<span id="f-clabe" class="big mono">${esc(groupClabe(view.clabe))}</span>` +
        `<button type="button" class="copy" data-copy="${esc(view.clabe)}" aria-label="${esc(m.copyClabeLabel)}">${esc(m.copy)}</button>`,
    ),
    view.bankName ? row(m.bank, `<span id="f-bank">${esc(view.bankName)}</span>`) : '',
    view.reference
      ? row(m.reference, `<span id="f-reference" class="mono">${esc(view.reference)}</span>`)
      : '',
    view.expiresAt
      ? row(
          m.payBefore,
          `<time id="f-expires" datetime="${view.expiresAt.toISOString()}">${esc(formatDeadline(view.expiresAt, m, opts.timeZone))}</time>`,
        ) +
        row(
          m.timeLeft,
          `<span id="f-countdown" role="timer" class="mono">${formatRemaining(remainingMs ?? 0, m.days)}</span>`,
        )
      : '',
  ].join('\n');

  const body = `<a class="skip" href="#heading">${esc(m.heading)}</a>
<main>
<div class="card">
<div class="top">
<p class="merchant">${esc(view.merchantName)}</p>
<a href="${esc(opts.otherLanguageUrl)}" lang="${other.htmlLang}" hreflang="${other.htmlLang}" aria-label="${esc(m.languageSwitchLabel)}">${esc(m.languageSwitch)}</a>
</div>
<h1 id="heading" tabindex="-1">${esc(heading)}</h1>
<section id="open-panel"${phase === 'open' ? '' : ' hidden'}>
<p>${esc(m.intro)}</p>
<dl>
${fields}
</dl>
<ol class="steps">${m.steps.map((s) => `<li>${esc(s)}</li>`).join('')}</ol>
</section>
<section id="paid-panel"${phase === 'paid' ? '' : ' hidden'}>
<p>${esc(m.paidBody)}</p>
<p id="returning"${view.returnUrl ? '' : ' hidden'}>${esc(m.returning)}</p>
<a id="return-link" class="action" href="${esc(phase === 'paid' ? (view.returnUrl ?? '') : '')}"${phase === 'paid' && view.returnUrl ? '' : ' hidden'}>${esc(m.returnNow)}</a>
</section>
<section id="ended-panel"${phase === 'ended' ? '' : ' hidden'}>
<p id="ended-reason">${esc(endedReason(view, m))}</p>
</section>
<p id="live" class="${statusClass}" role="status">${esc(statusLine(view, m))}</p>
<p id="copy-status" class="sr-only" role="status"></p>
</div>
<footer>
<a id="quit-link" class="action" href="${esc(quitUrl ?? '')}"${quitUrl ? '' : ' hidden'}>${esc(m.backToShop)}</a>
</footer>
</main>
<script type="application/json" id="cashier-data" nonce="${opts.nonce}">${scriptJson(data)}</script>
<script nonce="${opts.nonce}">${CASHIER_SCRIPT}</script>`;

  return shell({ lang, nonce: opts.nonce, title: `${m.pageTitle} · ${view.merchantName}`, body });
}

/** The page for a wrong token, an unknown order, too many requests or an outage: the same for every order. */
export function renderMessagePage(opts: {
  lang: Language;
  nonce: string;
  title: string;
  body: string;
}): string {
  return shell({
    lang: opts.lang,
    nonce: opts.nonce,
    title: opts.title,
    body: `<main><div class="card"><h1>${esc(opts.title)}</h1><p>${esc(opts.body)}</p></div></main>`,
  });
}
