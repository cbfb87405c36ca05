export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * The page's language: `?lang=` when it names one we have, else the first of Accept-Language's choices
 * (by q) that we have, else Spanish (es-MX), the payers' language.
 */
export function pickLanguage(query: string | undefined, acceptLanguage: string | undefined): Language {
  const known = (tag: string): Language | undefined => {
    const primary = tag.trim().toLowerCase().split('-')[0];
    return LANGUAGES.find((l) => l === primary);
  };
  if (query) {
    const chosen = known(query);
    if (chosen) return chosen;
  }
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((r) => r.tag && r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranked) {
    const chosen = known(tag);
    if (chosen) return chosen;
  }
  return 'es';
}

/** The page's words; the browser script receives the ones it shows after a change. */
export interface Messages {
  htmlLang: string;
  /** Locale for dates. */
  locale: string;
  pageTitle: string;
  heading: string;
  intro: string;
  payTo: string;
  concept: string;
  amount: string;
  clabe: string;
  bank: string;
  reference: string;
  payBefore: string;
  timeLeft: string;
  copy: string;
  copyAmountLabel: string;
  copyClabeLabel: string;
  copied: string;
  copyFailed: string;
  days: string;
  waiting: string;
  progress: string;
  expiring: string;
  paidHeading: string;
  paidBody: string;
  returning: string;
  returnNow: string;
  endedHeading: string;
  ended: { close: string; cancel: string; fail: string; timeout: string };
  backToShop: string;
  notFoundTitle: string;
  notFoundBody: string;
  tooManyTitle: string;
  tooManyBody: string;
  unavailableTitle: string;
  unavailableBody: string;
  languageSwitch: string;
  languageSwitchLabel: string;
  steps: string[];
}

export const MESSAGES: Record<Language, Messages> = {
  es: {
    htmlLang: 'es-MX',
    locale: 'es-MX',
    pageTitle: 'Pagar con transferencia SPEI',
    heading: 'Paga con una transferencia SPEI',
    intro: 'Envía el monto exacto a esta CLABE desde la app o la banca en línea de tu banco.',
    payTo: 'Beneficiario',
    concept: 'Concepto',
    amount: 'Monto exacto',
    clabe: 'CLABE',
    bank: 'Banco',
    reference: 'Referencia',
    payBefore: 'Paga antes de',
    timeLeft: 'Tiempo restante',
    copy: 'Copiar',
    copyAmountLabel: 'Copiar el monto',
    copyClabeLabel: 'Copiar la CLABE',
    copied: 'Copiado',
    copyFailed: 'No se pudo copiar; selecciona el texto y cópialo.',
    days: 'd',
    waiting: 'Esperando tu transferencia. Esta página se actualiza sola.',
    progress: 'Recibimos tu transferencia; la estamos confirmando.',
    expiring: 'El plazo terminó; confirmando el estado del pago…',
    paidHeading: '¡Pago recibido!',
    paidBody: 'Tu pago fue confirmado. Gracias.',
    returning: 'Te regresamos a la tienda en unos segundos.',
    returnNow: 'Volver a la tienda ahora',
    endedHeading: 'Este pago ya no es posible',
    ended: {
      close: 'La tienda cerró este pedido. No envíes dinero a esta CLABE.',
      cancel: 'La tienda canceló este pedido. No envíes dinero a esta CLABE.',
      fail: 'El pago no pudo completarse. No envíes dinero a esta CLABE.',
      timeout: 'El plazo para pagar terminó. No envíes dinero a esta CLABE.',
    },
    backToShop: 'Volver a la tienda',
    notFoundTitle: 'Página no encontrada',
    notFoundBody: 'El enlace de pago no es válido. Pide a la tienda un enlace nuevo.',
    tooManyTitle: 'Demasiadas solicitudes',
    tooManyBody: 'Espera un momento y vuelve a cargar la página.',
    unavailableTitle: 'Servicio no disponible',
    unavailableBody: 'No pudimos consultar tu pago. Vuelve a cargar la página en unos segundos.',
    languageSwitch: 'English',
    languageSwitchLabel: 'View this page in English',
    steps: [
      'Abre la app o la banca en línea de tu banco y elige transferencia SPEI.',
      'Usa la CLABE y el monto exacto que ves aquí.',
      'Esta página te avisa en cuanto llegue tu pago.',
    ],
  },
  en: {
    htmlLang: 'en',
    locale: 'en-US',
    pageTitle: 'Pay by SPEI transfer',
    heading: 'Pay with a SPEI transfer',
    intro: 'Send the exact amount to this CLABE from your bank’s app or online banking.',
    payTo: 'Beneficiary',
    concept: 'For',
    amount: 'Exact amount',
    clabe: 'CLABE',
    bank: 'Bank',
    reference: 'Reference',
    payBefore: 'Pay before',
    timeLeft: 'Time left',
    copy: 'Copy',
    copyAmountLabel: 'Copy the amount',
    copyClabeLabel: 'Copy the CLABE',
    copied: 'Copied',
    copyFailed: 'Could not copy; select the text and copy it.',
    days: 'd',
    waiting: 'Waiting for your transfer. This page updates by itself.',
    progress: 'Your transfer arrived; we are confirming it.',
    expiring: 'Time is up; checking the payment’s status…',
    paidHeading: 'Payment received!',
    paidBody: 'Your payment is confirmed. Thank you.',
    returning: 'Taking you back to the shop in a few seconds.',
    returnNow: 'Back to the shop now',
    endedHeading: 'This payment is no longer possible',
    ended: {
      close: 'The shop closed this order. Do not send money to this CLABE.',
      cancel: 'The shop cancelled this order. Do not send money to this CLABE.',
      fail: 'The payment could not be completed. Do not send money to this CLABE.',
      timeout: 'The time to pay has run out. Do not send money to this CLABE.',
    },
    backToShop: 'Back to the shop',
    notFoundTitle: 'Page not found',
    notFoundBody: 'This payment link is not valid. Ask the shop for a new one.',
    tooManyTitle: 'Too many requests',
    tooManyBody: 'Wait a moment and reload the page.',
    unavailableTitle: 'Service unavailable',
    unavailableBody: 'We could not look up your payment. Reload the page in a few seconds.',
    languageSwitch: 'Español',
    languageSwitchLabel: 'Ver esta página en español',
    steps: [
      'Open your bank’s app or online banking and choose a SPEI transfer.',
      'Use the CLABE and the exact amount shown here.',
      'This page tells you as soon as your payment arrives.',
    ],
  },
};
