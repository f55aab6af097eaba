/* Words for a refusal (an `error` message, docs/protocol.md): the rules' reason when the
   refusal carries `params` (static/ui/reasons.js says it with the cards named, in the page's
   language), else the catalog's text for its stable `code` with the figures the message
   carries as fields of its own (balance_too_low's `need`); never read out of its English
   `message`. */

import { reasonText } from "../reasons.js";

export function errorText(code, message, env) {
  const params = (message && message.params) || {};
  if (Object.keys(params).length) {
    const reason = reasonText(code, params, env.lang, env.nameOf);
    if (reason) return reason;
  }
  const catalog = env.client.catalog;
  const figures = Object.assign({}, message || {}, params);
  return String(catalog.errors[code] || catalog.error)
    .replace(/\{(\w+)\}/g, (m, k) => (figures[k] != null && typeof figures[k] !== "object" ? figures[k] : ""));
}
