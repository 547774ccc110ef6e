// Every word the pages show, one table per language. t(key, params) fills {name} slots.
export const MESSAGES = {
  en: {
    lang_toggle: "日本語",
    lang_toggle_label: "Switch to Japanese",
    title: "raceday party",
    derby: "Dice Derby",
    create_title: "Host a party",
    create_hint: "Open this on the big screen (TV or laptop). Phones join with the code or the QR.",
    races: "Races",
    host_dice: "Real dice: I roll at the table and type the numbers",
    borrowing: "Allow borrowing (loan 10,000, repay 15,000)",
    first_out_bonus: "First-out bonus (win odds ×1.5 after dropping first)",
    simple_odds: "Simple odds (easy party numbers)",
    fall_rate: "Falls",
    fall_none: "No falls",
    fall_some: "1 roll in 20 falls",
    create: "Create room",
    join_title: "Join a party",
    room_code: "Room code",
    your_name: "Your name",
    join: "Join",
    go: "Go",
    watch: "Watch",
    room: "Room {code}",
    join_at: "Join at {url}",
    scan: "Scan to join, or open the address and type the code",
    spectator_link: "Spectator link",
    seats: "Players ({n} of {max})",
    nobody_yet: "Nobody has joined yet.",
    computers: "Computer players",
    start: "Start the evening",
    waiting_host: "Waiting for the host to start…",
    you_are: "You are {name}",
    money: "Money",
    net: "Net",
    debt: "Owes",
    horse: "Horse",
    owner: "Owner",
    house: "House horse",
    no_horse: "no horse",
    price: "Price",
    prize: "Prizes",
    auction: "Auction",
    lot: "Now bidding: post {post}, the {horse}",
    sealed_count: "Sealed bids",
    waiting_for: "Waiting for: {names}",
    bid_amount: "Your sealed bid (0 = no bid)",
    seal_bid: "Seal bid",
    your_bid: "Your sealed bid: {amount} — only you see it; you can change it until everyone has bid.",
    you_own: "You own the {horse}.",
    close_bids: "Close bids (missing bids count as none)",
    sold: "Sold",
    unsold: "Nobody bid: the house runs the {horse}",
    betting: "Betting — race {race} of {races}",
    board: "Odds board",
    win: "Win",
    quinella: "Quinella",
    chance: "Chance",
    odds: "Odds",
    bonus: "First-out bonus ×1.5",
    ticket_kind: "Ticket",
    first_horse: "Horse",
    second_horse: "Second horse",
    stake: "Stake",
    buy: "Buy ticket",
    borrow: "Borrow",
    done_betting: "Done betting",
    you_are_done: "You are done betting. Waiting for the others…",
    my_tickets: "My tickets",
    no_tickets: "No tickets yet.",
    pays: "pays {amount}",
    done: "done",
    betting_players: "Who is done",
    close_betting: "Close betting and start the race",
    race: "Race {race}",
    racing: "Race {race} of {races}",
    furlong: "Furlong {n}",
    rolloff: "Roll-off for place {place}",
    roll_your: "Roll your {horse}!",
    next_roll: "Next: the {horse} ({who})",
    roll_for: "Roll the {horse} for {who}",
    enter_dice: "Type the dice for {what} (F = fall)",
    enter: "Enter",
    out: "out",
    fell: "fell",
    place_n: "{n}th",
    place_1: "1st",
    place_2: "2nd",
    place_3: "3rd",
    last_race: "Race {race} result",
    payouts: "Payouts",
    no_payouts: "No winning tickets and no prizes.",
    standings: "Standings",
    rank: "Rank",
    player: "Player",
    final: "Final standings",
    award: "Owners' award ({by}): {names} with {score}",
    no_award: "No owners' award: the house ran every horse.",
    award_gross: "prize money",
    award_net: "prize money minus price",
    over: "The evening is over. Thank you for playing!",
    new_party: "Host a new party",
    connecting: "Connecting…",
    reconnecting: "Connection lost — reconnecting…",
    connected: "Connected",
    error: "Not accepted: {message}",
    lost_seat: "This phone has no seat in room {code}.",
    spectating: "Watching",
    host_mode: "Host",
    commentary: "Commentary",
    // events
    ev_joined: "{name} joined",
    ev_started: "The evening starts with {n} players",
    ev_bid_sealed: "{name} sealed a bid",
    ev_bids_closed: "The host closed the bids",
    ev_lot: "The {horse} goes to {name} for {price}",
    ev_lot_none: "Nobody bid: the house runs the {horse}",
    ev_lot_bids: "Bids for the {horse}: {bids}",
    ev_tie: "{names} tie: a fair draw picks {name}",
    ev_betting_open: "Race {race} of {races}: betting is open",
    ev_borrowed: "{name} borrows {amount}",
    ev_done_betting: "{name} is done betting",
    ev_race_start: "Race {race}: they're off!",
    ev_roll: "{horse} shows {value}",
    ev_fall: "{horse} falls!",
    ev_round: "Furlong {round}: {out} drops out",
    ev_round_falls: "Furlong {round}: {out} fell and drop out",
    ev_rolloff_round: "Roll-off: {out} drops out",
    ev_rolloff: "Everyone but {leader} fell: {leader} takes the place, the fallen roll off",
    ev_reroll: "Everyone fell: the round is rolled again",
    ev_place: "{horses}: {place}",
    ev_quinella: "Quinella decided: {pair}",
    ev_quinella_paid: "{name} collects {amount} on the quinella",
    ev_result: "{horse} wins the race!",
    ev_settled: "Race {race} settled",
    ev_finished: "The evening is over",
  },
  ja: {
    lang_toggle: "English",
    lang_toggle_label: "英語に切り替え",
    title: "raceday パーティー",
    derby: "ダイスダービー",
    create_title: "パーティーを開く",
    create_hint: "大きな画面（テレビやパソコン）で開いてください。スマホはコードかQRで参加します。",
    races: "レース数",
    host_dice: "本物のサイコロ：ホストが振って数字を入力",
    borrowing: "借金あり（10,000借りて15,000返す）",
    first_out_bonus: "最初に脱落した馬の単勝オッズ×1.5",
    simple_odds: "簡単なオッズ",
    fall_rate: "落馬",
    fall_none: "落馬なし",
    fall_some: "20回に1回落馬",
    create: "部屋を作る",
    join_title: "パーティーに参加",
    room_code: "部屋コード",
    your_name: "名前",
    join: "参加する",
    go: "進む",
    watch: "観戦",
    room: "部屋 {code}",
    join_at: "{url} で参加",
    scan: "QRを読み取るか、アドレスを開いてコードを入力",
    spectator_link: "観戦リンク",
    seats: "参加者（{n}／{max}）",
    nobody_yet: "まだ誰も参加していません。",
    computers: "コンピューター",
    start: "開始する",
    waiting_host: "ホストの開始を待っています…",
    you_are: "あなたは {name}",
    money: "所持金",
    net: "純資産",
    debt: "借金",
    horse: "馬",
    owner: "馬主",
    house: "胴元の馬",
    no_horse: "馬なし",
    price: "落札額",
    prize: "賞金",
    auction: "競り",
    lot: "競り中：{post}番 {horse}",
    sealed_count: "入札済み",
    waiting_for: "待っています：{names}",
    bid_amount: "入札額（0＝入札しない）",
    seal_bid: "入札する",
    your_bid: "あなたの入札：{amount}（あなただけに表示。全員の入札までは変更できます）",
    you_own: "あなたの馬は {horse} です。",
    close_bids: "入札を締め切る（未入札は入札なし）",
    sold: "落札",
    unsold: "入札なし：{horse} は胴元の馬",
    betting: "馬券発売中 — 第{race}レース（全{races}）",
    board: "オッズ表",
    win: "単勝",
    quinella: "馬連",
    chance: "確率",
    odds: "オッズ",
    bonus: "初脱落ボーナス×1.5",
    ticket_kind: "馬券",
    first_horse: "馬",
    second_horse: "2頭目",
    stake: "金額",
    buy: "馬券を買う",
    borrow: "借金する",
    done_betting: "購入終了",
    you_are_done: "購入を終えました。他の人を待っています…",
    my_tickets: "私の馬券",
    no_tickets: "馬券はまだありません。",
    pays: "払戻 {amount}",
    done: "完了",
    betting_players: "購入終了した人",
    close_betting: "発売を締め切ってスタート",
    race: "第{race}レース",
    racing: "第{race}レース（全{races}）",
    furlong: "第{n}ハロン",
    rolloff: "{place}着の振り直し",
    roll_your: "{horse} を振る！",
    next_roll: "次：{horse}（{who}）",
    roll_for: "{who} の {horse} を振る",
    enter_dice: "{what} の出目を入力（F＝落馬）",
    enter: "入力",
    out: "脱落",
    fell: "落馬",
    place_n: "{n}着",
    place_1: "1着",
    place_2: "2着",
    place_3: "3着",
    last_race: "第{race}レースの結果",
    payouts: "払い戻し",
    no_payouts: "的中馬券も賞金もありません。",
    standings: "順位",
    rank: "順位",
    player: "プレイヤー",
    final: "最終順位",
    award: "馬主賞（{by}）：{names}（{score}）",
    no_award: "馬主賞なし：すべて胴元の馬でした。",
    award_gross: "賞金",
    award_net: "賞金−落札額",
    over: "これでおしまい。ありがとうございました！",
    new_party: "新しいパーティーを開く",
    connecting: "接続中…",
    reconnecting: "接続が切れました。再接続中…",
    connected: "接続済み",
    error: "受け付けられません：{message}",
    lost_seat: "このスマホは部屋 {code} の席を持っていません。",
    spectating: "観戦中",
    host_mode: "ホスト",
    commentary: "実況",
    ev_joined: "{name} が参加",
    ev_started: "{n}人で開始",
    ev_bid_sealed: "{name} が入札",
    ev_bids_closed: "ホストが入札を締め切りました",
    ev_lot: "{horse} は {name} が {price} で落札",
    ev_lot_none: "入札なし：{horse} は胴元の馬",
    ev_lot_bids: "{horse} の入札：{bids}",
    ev_tie: "{names} が同額：抽選で {name}",
    ev_betting_open: "第{race}レース（全{races}）：馬券発売開始",
    ev_borrowed: "{name} が {amount} 借りました",
    ev_done_betting: "{name} が購入終了",
    ev_race_start: "第{race}レース：スタート！",
    ev_roll: "{horse} の出目は {value}",
    ev_fall: "{horse} が落馬！",
    ev_round: "第{round}ハロン：{out} が脱落",
    ev_round_falls: "第{round}ハロン：{out} が落馬で脱落",
    ev_rolloff_round: "振り直し：{out} が脱落",
    ev_rolloff: "{leader} 以外が落馬：{leader} が着順確定、落馬した馬が振り直し",
    ev_reroll: "全頭落馬：振り直し",
    ev_place: "{horses}：{place}",
    ev_quinella: "馬連確定：{pair}",
    ev_quinella_paid: "{name} が馬連で {amount} 獲得",
    ev_result: "{horse} が優勝！",
    ev_settled: "第{race}レース精算",
    ev_finished: "これでおしまい",
  },
};

const KEY = "raceday.lang";
let lang = pickLanguage();
const listeners = [];

function pickLanguage() {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved && MESSAGES[saved]) return saved;
  } catch (_) { /* storage off */ }
  const wanted = (navigator.languages || [navigator.language || "en"]);
  for (const l of wanted) {
    const short = String(l).toLowerCase().slice(0, 2);
    if (MESSAGES[short]) return short;
  }
  return "en";
}

export function language() { return lang; }

export function setLanguage(next) {
  if (!MESSAGES[next]) return;
  lang = next;
  try { localStorage.setItem(KEY, next); } catch (_) { /* storage off */ }
  document.documentElement.lang = next;
  translatePage();
  for (const f of listeners) f(next);
}

export function onLanguage(f) { listeners.push(f); }

export function t(key, params = {}) {
  const table = MESSAGES[lang] || MESSAGES.en;
  let text = table[key] ?? MESSAGES.en[key] ?? key;
  for (const [k, v] of Object.entries(params)) text = text.split(`{${k}}`).join(String(v));
  return text;
}

export function placeText(n) {
  if (n === 1) return t("place_1");
  if (n === 2) return t("place_2");
  if (n === 3) return t("place_3");
  return t("place_n", { n });
}

export function money(n) {
  return Number(n).toLocaleString(lang === "ja" ? "ja-JP" : "en-US");
}

// Elements with data-i18n="key" get their text; data-i18n-label sets aria-label.
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
}

// A button that toggles English / Japanese.
export function languageButton() {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "lang";
  const draw = () => {
    b.textContent = t("lang_toggle");
    b.setAttribute("aria-label", t("lang_toggle_label"));
  };
  b.addEventListener("click", () => setLanguage(lang === "en" ? "ja" : "en"));
  onLanguage(draw);
  draw();
  return b;
}

document.documentElement.lang = lang;
