/* Words for a refusal (an `error` message, docs/protocol.md): the catalog's text for its
   stable `code`, in the page's language, with the figures the message carries as fields of
   its own (balance_too_low's `need`; the `params` object once errors carry one), never read
   out of its English `message`.

   The one place to wire static/ui/reasons.js into: reasonText(code, params, lang) there
   replaces the catalog lookup below once every refusal has its params. */

export function errorText(code, message, env) {
  const catalog = env.client.catalog;
  const figures = Object.assign({}, message || {}, (message && message.params) || {});
  let text = String(catalog.errors[code] || catalog.error)
    .replace(/\{(\w+)\}/g, (m, k) => (figures[k] != null && typeof figures[k] !== "object" ? figures[k] : ""));
  // An illegal follow: until its params say what must be played, an English page adds the
  // server's own English words for it (suits drawn as symbols); a Chinese page keeps its own.
  const detail = message && typeof message.message === "string" ? message.message : "";
  if (code === "illegal_follow" && detail && !(message && message.params) && env.lang.indexOf("en") === 0) {
    text += " " + detail.charAt(0).toUpperCase() + detail.slice(1)
      .replace(/\b([SHCD])\b/g, (m, suit) => env.suits[suit]) + ".";
  }
  return text;
}
