/* Why an action was refused, in the player's language: the socket's `error` frame carries the
   refusal's `code` and `params` (docs/protocol.md, "Refusals of the engine and their params"),
   and reasonText turns them into a sentence with the cards named ("♥K", "红桃K"). No rule
   lives here: what was owed comes in the params, this only says it. A plain ES module with
   no DOM, so Node tests it (tests/ui/js/reasons.test.mjs). */

var SUIT_SIGN = { S: "♠", H: "♥", C: "♣", D: "♦" };
var SUIT_ZH = { S: "黑桃", H: "红桃", C: "梅花", D: "方块" };
var ZH_DIGITS = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十"];
var PHASE = {
  en: { deal: "the deal", declare: "the declarations", bury: "the bury", play: "the play",
        end: "the end of the hand", bid: "the bidding", trump: "naming trump" },
  zh: { deal: "发牌", declare: "亮主", bury: "扣底", play: "出牌", end: "本局结束", bid: "叫分",
        trump: "定主" },
};

/* A card token (NOTATION.md: "H10", "BJ") as a player reads it. */
export function cardName(token, lang) {
  if (token === "BJ") return lang === "zh" ? "大王" : "big joker";
  if (token === "LJ") return lang === "zh" ? "小王" : "little joker";
  var suit = token.charAt(0), rank = token.slice(1);
  return lang === "zh" ? SUIT_ZH[suit] + rank : SUIT_SIGN[suit] + rank;
}

function cardList(tokens, lang) {
  return (tokens || []).map(function (t) { return cardName(t, lang); }).join(lang === "zh" ? "、" : " ");
}

/* A class led: a suit letter or "trump". */
function suitName(suit, lang) {
  if (suit === "trump") return lang === "zh" ? "主牌" : "trump";
  return lang === "zh" ? SUIT_ZH[suit] : SUIT_SIGN[suit];
}

/* A count in Chinese before a measure word: 两 for 2 (两个对子), digits past ten. */
function zhCount(n) {
  if (n === 2) return "两";
  return n <= 10 ? ZH_DIGITS[n] : String(n);
}

var GROUP_EN = { 2: ["pair", "pairs"], 3: ["triple", "triples"], 4: ["quad", "quads"] };
var GROUP_ZH = { 2: "对子", 3: "三张", 4: "四张" };

/* One owed unit without its article: [singular, plural] in English, one noun in Chinese. */
function unitNoun(unit, lang) {
  var zh = lang === "zh";
  var alternatives = [];
  if (unit.shape === "block") {
    if (zh) return unit.cards === 4 ? "拖拉机或四张（4张）" : unit.cards + "张的拖拉机";
    return unit.cards === 4 ? ["tractor or quad (4 cards)", "tractors or quads (4 cards each)"]
                            : ["tractor of " + unit.cards + " cards", "tractors of " + unit.cards + " cards"];
  }
  if (unit.shape === "unit") {
    if (zh) return unit.cards + "张的单一牌型（对子或以上）";
    return ["unit of " + unit.cards + " cards (pairs or more)", "units of " + unit.cards + " cards"];
  }
  if (unit.shape === "tractor" && unit.width == null) {
    if (zh) return unit.cards + "张的拖拉机";
    return ["tractor of " + unit.cards + " cards", "tractors of " + unit.cards + " cards"];
  }
  var base = groupNoun(unit.width, unit.length, lang);
  if (unit.or_more_copies) {
    // As many cards with more copies of each card also do: a quad for a tractor of 2 pairs.
    for (var more = unit.width + 1; more <= 4; more++) {
      if (unit.cards % more === 0) alternatives.push(groupNoun(more, unit.cards / more, lang));
    }
  }
  if (zh) return [base].concat(alternatives).join("或");
  return [[base[0]].concat(alternatives.map(function (a) { return a[0]; })).join(" or a "),
          [base[1]].concat(alternatives.map(function (a) { return a[1]; })).join(" or ")];
}

function groupNoun(width, length, lang) {
  if (lang === "zh") {
    if (length === 1) return GROUP_ZH[width];
    return zhCount(length) + (width === 2 ? "连对" : "连" + GROUP_ZH[width]) + "拖拉机";
  }
  if (length === 1) return GROUP_EN[width];
  var of = length + " " + GROUP_EN[width][1];
  return ["tractor of " + of, "tractors of " + of];
}

/* The owed units, alike ones counted together: "a ♥ tractor of 2 pairs and a pair",
   "红桃两连对拖拉机和对子". */
function owedPhrase(owed, suit, lang) {
  var runs = [];
  owed.forEach(function (unit) {
    var key = JSON.stringify(unit);
    var last = runs[runs.length - 1];
    if (last && last.key === key) last.n += 1;
    else runs.push({ key: key, unit: unit, n: 1 });
  });
  var parts = runs.map(function (run, i) {
    var noun = unitNoun(run.unit, lang);
    if (lang === "zh") return (run.n > 1 ? zhCount(run.n) + "个" : "") + noun;
    var sign = i === 0 ? suitName(suit, lang) + " " : "";
    if (run.n > 1) return run.n + " " + sign + noun[1];
    return (/^[aeiou]/.test(sign + noun[0]) ? "an " : "a ") + sign + noun[0];
  });
  if (lang === "zh") return suitName(suit, lang) + parts.join("和");
  return parts.length > 1 ? parts.slice(0, -1).join(", ") + " and " + parts[parts.length - 1] : parts[0];
}

function seatName(seat, nameOf, lang) {
  if (nameOf) return nameOf(seat);
  return lang === "zh" ? seat + "号座位" : "seat " + seat;
}

function follow(p, lang) {
  var zh = lang === "zh";
  var suit = suitName(p.suit, lang);
  var text;
  if (p.count < p.led) {
    if (zh) text = p.count === 1 ? "你必须出手中最后一张" + suit + "。" : "你必须出完手中全部" + p.count + "张" + suit + "。";
    else if (p.suit === "trump") text = p.count === 1 ? "You must play your last trump." : "You must play all " + p.count + " of your trumps.";
    else text = p.count === 1 ? "You must play your last " + suit + " card." : "You must play all " + p.count + " of your " + suit + " cards.";
  } else if (p.owed && p.owed.length) {
    text = zh ? "你必须跟出" + owedPhrase(p.owed, p.suit, lang) + "。" : "You must follow with " + owedPhrase(p.owed, p.suit, lang) + ".";
  } else if (p.led === 1) {
    if (zh) text = "你必须跟" + suit + "。";
    else text = p.suit === "trump" ? "You must follow with a trump while you hold one." : "You must follow with a " + suit + " card while you hold one.";
  } else {
    if (zh) text = "你必须跟" + p.led + "张" + suit + "。";
    else text = p.suit === "trump" ? "You must follow with " + p.led + " trumps." : "You must follow with " + p.led + " " + suit + " cards.";
  }
  if (p.example && p.example.length) text += zh ? "例如：" + cardList(p.example, lang) + "。" : " For example: " + cardList(p.example, lang) + ".";
  return text;
}

function lead(p, lang) {
  var zh = lang === "zh";
  if (p.reason === "mixed") return zh ? "首发的牌必须是同一花色，或者都是主牌。" : "A lead must be all of one suit, or all trumps.";
  if (p.reason === "throw") {
    if (p.throws === "trump") {
      return zh ? "只有主牌可以甩牌：" + suitName(p.suit, lang) + "只能出一个牌型。"
                : "Only trumps may be thrown: lead one " + suitName(p.suit, lang) + " unit.";
    }
    return zh ? "这个玩法不能甩牌：请只出一个牌型。" : "There are no throws (甩牌) in this game: lead one unit.";
  }
  return zh ? "首发至少要出一张牌。" : "A lead needs at least one card.";
}

function option(p, lang) {
  var zh = lang === "zh";
  if (p.unknown) return zh ? "未知的选项：" + p.unknown.join("、") + "。" : "Unknown options: " + p.unknown.join(", ") + ".";
  return zh ? p.option + "只能是" + p.values.join("、") + "之一。" : p.option + " must be one of " + p.values.join(", ") + ".";
}

/* code -> {en, zh}: each (params, nameOf) -> the sentence. */
export var REASONS = {
  illegal_follow: { en: function (p) { return follow(p, "en"); }, zh: function (p) { return follow(p, "zh"); } },
  throw_refused: {
    en: function (p) {
      return "You cannot throw this: your " + cardList(p.by, "en") + (p.by.length > 1 ? " beat" : " beats") +
        " the " + cardList(p.beaten, "en") + " you threw. Lead again.";
    },
    zh: function (p) { return "不能甩牌：你手中的" + cardList(p.by, "zh") + "大于甩出的" + cardList(p.beaten, "zh") + "。请重新出牌。"; },
  },
  illegal_lead: { en: function (p) { return lead(p, "en"); }, zh: function (p) { return lead(p, "zh"); } },
  not_your_turn: {
    en: function (p, nameOf) { return "It is not your turn: " + seatName(p.turn, nameOf, "en") + " is to act."; },
    zh: function (p, nameOf) { return "还没轮到你：现在轮到" + seatName(p.turn, nameOf, "zh") + "。"; },
  },
  cards_not_held: {
    en: function (p) { return "You do not hold " + cardList(p.cards, "en") + "."; },
    zh: function (p) { return "你手中没有" + cardList(p.cards, "zh") + "。"; },
  },
  wrong_count: {
    en: function (p) { return "Bury exactly " + p.count + " cards (you chose " + p.given + ")."; },
    zh: function (p) { return "必须扣" + p.count + "张底牌（你选了" + p.given + "张）。"; },
  },
  wrong_phase: {
    en: function (p) { return "That cannot be done during " + (PHASE.en[p.phase] || p.phase) + "."; },
    zh: function (p) { return "现在不能这样做：当前是" + (PHASE.zh[p.phase] || p.phase) + "阶段。"; },
  },
  declaration_rejected: {
    en: function (p) { return cardList(p.cards, "en") + " does not beat the standing declaration."; },
    zh: function (p) { return cardList(p.cards, "zh") + "不能反过现在的亮主。"; },
  },
  illegal_bid: {
    en: function (p) { return "A bid now is a multiple of " + p.step + " from 0 to " + p.max + "."; },
    zh: function (p) { return "现在叫分只能是" + p.step + "的倍数，从0到" + p.max + "。"; },
  },
  surrender_not_allowed: {
    en: function (p) { return "Surrender needs a contract of at least " + p.min + "."; },
    zh: function (p) { return "叫分至少" + p.min + "才能投降。"; },
  },
  bidding_over: { en: function () { return "The bidding is over."; }, zh: function () { return "叫分已经结束。"; } },
  bad_trump: {
    en: function () { return "Trump is one of the four suits, or none (全常主)."; },
    zh: function () { return "主只能是四种花色之一，或全常主。"; },
  },
  bad_card: {
    en: function (p) { return String(p.card) + " is not a card."; },
    zh: function (p) { return String(p.card) + "不是一张牌。"; },
  },
  bad_cards: { en: function () { return "No cards were chosen."; }, zh: function () { return "没有选择牌。"; } },
  bad_action: { en: function () { return "That action is not understood."; }, zh: function () { return "无法识别的操作。"; } },
  unknown_action: {
    en: function (p) { return "This game has no action " + String(p.action) + "."; },
    zh: function (p) { return "这个玩法没有" + String(p.action) + "这个操作。"; },
  },
  bad_seat: { en: function () { return "That is not a seat at this table."; }, zh: function () { return "座位无效。"; } },
  not_your_action: { en: function () { return "Only the table does that."; }, zh: function () { return "只有系统可以这样做。"; } },
  hand_over: { en: function () { return "The hand is over."; }, zh: function () { return "这一局已经结束。"; } },
  hand_not_over: { en: function () { return "The hand is not over yet."; }, zh: function () { return "这一局还没有结束。"; } },
  bad_option: { en: function (p) { return option(p, "en"); }, zh: function (p) { return option(p, "zh"); } },
  unknown_variant: {
    en: function (p) { return "There is no game " + String(p.variant) + "."; },
    zh: function (p) { return "没有" + String(p.variant) + "这种玩法。"; },
  },
  bad_input: { en: function () { return "The case is not well formed."; }, zh: function () { return "输入的格式不正确。"; } },
  impossible_cards: {
    en: function () { return "A card occurs more often than the decks hold."; },
    zh: function () { return "有一张牌出现的次数比牌里的还多。"; },
  },
  unknown_kind: {
    en: function (p) { return "There is no kind " + String(p.kind) + "."; },
    zh: function (p) { return "没有" + String(p.kind) + "这种类型。"; },
  },
  not_applicable: {
    en: function (p) { return p.kind + " is not defined for " + p.variant + "."; },
    zh: function (p) { return p.kind + "不适用于" + p.variant + "。"; },
  },
  bad_level: {
    en: function (p) { return String(p.level) + " is not a level of this game."; },
    zh: function (p) { return String(p.level) + "不是这个玩法的级别。"; },
  },
  play_not_in_hand: {
    en: function () { return "The cards played are not all in the hand."; },
    zh: function () { return "出的牌不全在手牌里。"; },
  },
};

/* The refusal `code` with its `params` as a sentence in `lang` ("zh", "zh-hans", "en"; any
   other reads English), or null for a code this module does not know (the page then shows
   the server's message). `nameOf(seat)`, when given, names a seat (the page's player names). */
export function reasonText(code, params, lang, nameOf) {
  var texts = REASONS[code];
  if (!texts) return null;
  var language = String(lang || "en").toLowerCase().split("-")[0] === "zh" ? "zh" : "en";
  return texts[language](params || {}, nameOf);
}
