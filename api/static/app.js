// mjscan's page for use at the table: photo -> /v1/analyze, corrections -> /v1/score.
// Plain JavaScript, no build step. The rule sets, their options and the situation fields they read all
// come from /v1/rules, so a new rule set needs no change here.
"use strict";

const STORE_KEY = "mjscan.settings.v1";
const RULES_KEY = "mjscan.rules.v1";
const SUITS = ["m", "p", "s"];
const PICKER_ROWS = [
  ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"],
  ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p"],
  ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s"],
  ["1z", "2z", "3z", "4z", "5z", "6z", "7z", "0m", "0p"],
  ["0s", "1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"],
];
const HONOURS = ["East", "South", "West", "North", "White", "Green", "Red"];
const FLOWERS = ["plum", "orchid", "chrysanthemum", "bamboo", "spring", "summer", "autumn", "winter"];
const SUIT_NAMES = { m: "characters", p: "dots", s: "bamboo" };
// Labels of the hand fields of contracts.md; a field not named here is shown by its own name.
const FIELD_LABELS = {
  self_drawn: "Self-drawn (tsumo)",
  seat_wind: "Seat wind",
  round_wind: "Round wind",
  dealer: "Dealer",
  dealer_streak: "Dealer repeats",
  riichi: "Riichi",
  double_riichi: "Double riichi",
  ippatsu: "Ippatsu",
  last_tile: "Last tile (haitei / houtei)",
  kong_replacement: "Kong replacement (rinshan)",
  robbing_kong: "Robbing a kong (chankan)",
  fourth_tile: "Last copy of the tile",
  heavenly_win: "Heavenly win",
  earthly_win: "Earthly win",
  human_win: "Human win",
  heavenly_ready: "Heavenly ready",
  earthly_ready: "Earthly ready",
  dora_indicators: "Dora indicators",
  ura_dora_indicators: "Ura dora indicators",
  honba: "Honba (counters)",
  riichi_sticks: "Riichi sticks on the table",
  seat_index: "Seat from the wall break (0-3)",
  void_suit: "Void suit",
  initial_hand: "Initial-hand win",
  wild_indicator: "Wild tile indicator",
  contract: "Contract",
};

const $ = (id) => document.getElementById(id);
const state = {
  rules: [],
  ruleset: null,
  options: {}, // rule set name -> {option: value}
  situation: {}, // field -> value (shared by the rule sets that read the field)
  hand: emptyHand(),
  // what the recogniser read at each place of the hand, kept in step with the hand as it is edited (never longer
  // than it: a tile added by hand has none): {likely, unsure} a tile, likely the other codes it found likely
  // (shown first in the picker), unsure whether it scored under UNSURE_BELOW (marked until the tile is picked
  // again); concealed and flowers one a tile, melds a list a meld, win one or null;
  // add: the codes one more tile of which would complete the hand read (a tile missed), until the hand changes
  reads: noReads(),
  scoreSeq: 0,
  scoreTimer: null,
};

// A tile scoring under this is marked unsure (vision.annotate.LOW_SCORE, which the annotated photo and the
// warnings use).
const UNSURE_BELOW = 0.5;

function noReads() {
  return { concealed: [], melds: [], win: null, flowers: [], add: [] };
}

// The codes the picker offers first for the tile read so, and its mark.
const likelyOf = (read) => (read ? read.likely : []);
const unsureClass = (read) => (read && read.unsure ? "unsure" : "");
// The tile read so was picked again: it is no longer unsure.
function settled(read) {
  if (read) read.unsure = false;
}

function emptyHand() {
  return { concealed: [], melds: [], win_tile: null, flowers: [] };
}

// ---- tiles ---------------------------------------------------------------------------------------

function tileName(code) {
  if (code === "back") return "face-down tile";
  const n = code[0];
  const s = code[1];
  if (s === "z") return HONOURS[Number(n) - 1] || code;
  if (s === "f") return FLOWERS[Number(n) - 1] || code;
  if (n === "0") return `red 5 ${SUIT_NAMES[s]}`;
  return `${n} ${SUIT_NAMES[s] || ""}`.trim();
}

function normal(code) {
  return code && code[0] === "0" ? "5" + code[1] : code;
}

function tileButton(code, { onTap, extraClass = "", label = null } = {}) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `tile ${extraClass}`.trim();
  button.dataset.code = code || "";
  const face = document.createElement("span");
  face.className = "face";
  if (code) {
    const img = document.createElement("img");
    img.src = `/static/tiles/${code}.svg`;
    img.alt = "";
    face.appendChild(img);
  }
  const caption = document.createElement("span");
  caption.className = "code";
  caption.textContent = code || "";
  button.append(face, caption);
  button.setAttribute("aria-label", label || (code ? `${code}: ${tileName(code)}` : "empty"));
  if (onTap) button.addEventListener("click", onTap);
  return button;
}

function addButton(label, onTap) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "tile add";
  button.setAttribute("aria-label", label);
  const face = document.createElement("span");
  face.className = "face";
  face.textContent = "+";
  const caption = document.createElement("span");
  caption.className = "code";
  caption.textContent = "add";
  button.append(face, caption);
  button.addEventListener("click", onTap);
  return button;
}

// ---- the tile picker -------------------------------------------------------------------------------

// Opens the picker. onPick(code) is called with the chosen tile; actions are extra buttons
// [{label, run, danger}] such as "Remove"; likely: codes shown first, in a row of their own (the other codes the
// recogniser found likely for the tile).
function pick({ title, current = null, onPick, actions = [], allow = () => true, likely = [] }) {
  const dialog = $("picker");
  $("picker-title").textContent = title;
  const choose = (code) => () => {
    dialog.close();
    onPick(code);
  };
  const row = $("picker-likely");
  const offered = likely.filter((code) => code !== current && allow(code));
  row.replaceChildren();
  row.hidden = offered.length === 0;
  if (offered.length) {
    const label = document.createElement("span");
    label.className = "likely-label";
    label.textContent = "Likely:";
    row.appendChild(label);
    for (const code of offered) row.appendChild(tileButton(code, { onTap: choose(code) }));
  }
  const grid = $("picker-grid");
  grid.replaceChildren();
  for (const row of PICKER_ROWS) {
    for (const code of row) {
      if (!allow(code)) {
        grid.appendChild(document.createElement("span"));
        continue;
      }
      const extra = code === current ? "current" : "";
      grid.appendChild(tileButton(code, { extraClass: extra, onTap: choose(code) }));
    }
  }
  const bar = $("picker-actions");
  bar.replaceChildren();
  for (const action of actions) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `button${action.danger ? " danger" : ""}`;
    button.textContent = action.label;
    button.addEventListener("click", () => {
      dialog.close();
      action.run();
    });
    bar.appendChild(button);
  }
  dialog.showModal();
}

const notFlower = (code) => code[1] !== "f";
const isFlower = (code) => code[1] === "f";

// ---- the hand editor -----------------------------------------------------------------------------

function meldType(tiles) {
  const codes = tiles.map(normal);
  if (codes.length >= 3 && codes.every((c) => c === codes[0])) return codes.length === 4 ? "kong" : "pung";
  if (codes.length === 3 && SUITS.includes(codes[0][1]) && codes.every((c) => c[1] === codes[0][1])) {
    const ranks = codes.map((c) => Number(c[0])).sort((a, b) => a - b);
    if (ranks[1] === ranks[0] + 1 && ranks[2] === ranks[1] + 1) return "chow";
  }
  return null;
}

function setMeldTiles(meld, tiles) {
  meld.tiles = tiles;
  meld.type = meldType(tiles) || (tiles.length === 4 ? "kong" : "chow");
  if (meld.type !== "kong") {
    meld.open = true;
    delete meld.added;
  }
  if (meld.called && !tiles.map(normal).includes(normal(meld.called))) delete meld.called;
}

function changed() {
  state.reads.add = [];
  saveSettings();
  renderHand();
  scheduleScore();
}

function renderHand() {
  const hand = state.hand;
  const concealed = $("concealed");
  concealed.replaceChildren();
  hand.concealed.forEach((code, i) => {
    concealed.appendChild(
      tileButton(code, {
        extraClass: unsureClass(state.reads.concealed[i]),
        onTap: () =>
          pick({
            title: `Concealed tile ${i + 1}: ${code}`,
            current: code,
            allow: notFlower,
            likely: likelyOf(state.reads.concealed[i]),
            onPick: (c) => {
              hand.concealed[i] = c;
              settled(state.reads.concealed[i]);
              changed();
            },
            actions: [
              {
                label: "Make it the winning tile",
                run: () => {
                  const old = hand.win_tile;
                  const reads = state.reads;
                  const oldRead = reads.win;
                  hand.win_tile = code;
                  reads.win = reads.concealed[i] || null;
                  if (old) {
                    hand.concealed[i] = old;
                    reads.concealed[i] = oldRead || undefined;
                  } else {
                    hand.concealed.splice(i, 1);
                    reads.concealed.splice(i, 1);
                  }
                  changed();
                },
              },
              { label: "Remove", danger: true, run: () => removeConcealed(i) },
            ],
          }),
      }),
    );
  });
  concealed.appendChild(
    addButton("add a concealed tile", () =>
      pick({
        title: "Add a concealed tile",
        allow: notFlower,
        likely: state.reads.add,
        onPick: (c) => {
          hand.concealed.push(c);
          changed();
        },
      }),
    ),
  );

  const win = $("win");
  win.replaceChildren();
  if (hand.win_tile) {
    win.appendChild(
      tileButton(hand.win_tile, {
        extraClass: `win ${unsureClass(state.reads.win)}`,
        onTap: () =>
          pick({
            title: `Winning tile: ${hand.win_tile}`,
            current: hand.win_tile,
            allow: notFlower,
            likely: likelyOf(state.reads.win),
            onPick: (c) => {
              hand.win_tile = c;
              settled(state.reads.win);
              changed();
            },
            actions: [
              {
                label: "Move it to the concealed tiles",
                run: () => {
                  hand.concealed.push(hand.win_tile);
                  state.reads.concealed[hand.concealed.length - 1] = state.reads.win || undefined;
                  state.reads.win = null;
                  hand.win_tile = null;
                  changed();
                },
              },
              {
                label: "Remove",
                danger: true,
                run: () => {
                  hand.win_tile = null;
                  state.reads.win = null;
                  changed();
                },
              },
            ],
          }),
      }),
    );
  } else {
    win.appendChild(
      tileButton(null, {
        extraClass: "empty",
        label: "choose the winning tile",
        onTap: () =>
          pick({
            title: "The winning tile",
            allow: notFlower,
            likely: state.reads.add,
            onPick: (c) => {
              hand.win_tile = c;
              state.reads.win = null;
              changed();
            },
          }),
      }),
    );
  }

  renderMelds();
  renderTileList($("flowers"), hand.flowers, {
    title: "flower or season",
    allow: isFlower,
    reads: state.reads.flowers,
  });
  const readsFlowers = currentRuleset()?.situation.includes("flowers");
  $("flowers-box").hidden = !readsFlowers && hand.flowers.length === 0;
  renderCount();
}

function removeConcealed(i) {
  state.hand.concealed.splice(i, 1);
  state.reads.concealed.splice(i, 1);
  changed();
}

function renderMelds() {
  const box = $("melds");
  box.replaceChildren();
  state.hand.melds.forEach((meld, m) => {
    const wrap = document.createElement("div");
    wrap.className = "meld";
    const head = document.createElement("div");
    head.className = "meld-head";
    const kind = document.createElement("span");
    kind.className = "kind";
    const shape = meldType(meld.tiles);
    kind.textContent = `Meld ${m + 1}: ${shape ? shape : meld.tiles.length ? "not a meld yet" : "empty"}`;
    head.appendChild(kind);
    if (shape === "kong") {
      const label = document.createElement("label");
      label.className = "check";
      const box2 = document.createElement("input");
      box2.type = "checkbox";
      box2.checked = meld.open === false;
      box2.addEventListener("change", () => {
        meld.open = !box2.checked;
        if (!meld.open) delete meld.added;
        changed();
      });
      label.append(box2, document.createTextNode("concealed kong"));
      head.appendChild(label);
    }
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "button danger";
    remove.textContent = "Remove meld";
    remove.addEventListener("click", () => {
      state.hand.melds.splice(m, 1);
      state.reads.melds.splice(m, 1);
      changed();
    });
    head.appendChild(remove);
    const row = document.createElement("div");
    row.className = "tiles";
    const reads = state.reads.melds[m] || []; // none for a meld added by hand
    meld.tiles.forEach((code, t) => {
      row.appendChild(
        tileButton(code, {
          extraClass: unsureClass(reads[t]),
          onTap: () =>
            pick({
              title: `Meld ${m + 1}, tile ${t + 1}: ${code}`,
              current: code,
              allow: notFlower,
              likely: likelyOf(reads[t]),
              onPick: (c) => {
                const tiles = [...meld.tiles];
                tiles[t] = c;
                setMeldTiles(meld, tiles);
                settled(reads[t]);
                changed();
              },
              actions: [
                {
                  label: "Remove",
                  danger: true,
                  run: () => {
                    setMeldTiles(
                      meld,
                      meld.tiles.filter((_, k) => k !== t),
                    );
                    reads.splice(t, 1);
                    changed();
                  },
                },
              ],
            }),
        }),
      );
    });
    if (meld.tiles.length < 4) {
      row.appendChild(
        addButton(`add a tile to meld ${m + 1}`, () =>
          pick({
            title: `Add a tile to meld ${m + 1}`,
            allow: notFlower,
            onPick: (c) => {
              setMeldTiles(meld, [...meld.tiles, c]);
              changed();
            },
          }),
        ),
      );
    }
    wrap.append(head, row);
    box.appendChild(wrap);
  });
}

// A list of tiles edited in place (flowers, dora indicators): tap to change or remove, + to add. reads: what the
// recogniser read for each tile (state.reads), kept in step with the list.
function renderTileList(container, list, { title, allow = notFlower, after = changed, reads = [] }) {
  container.replaceChildren();
  list.forEach((code, i) => {
    container.appendChild(
      tileButton(code, {
        extraClass: unsureClass(reads[i]),
        onTap: () =>
          pick({
            title: `${title}: ${code}`,
            current: code,
            allow,
            likely: likelyOf(reads[i]),
            onPick: (c) => {
              list[i] = c;
              settled(reads[i]);
              after();
            },
            actions: [
              {
                label: "Remove",
                danger: true,
                run: () => {
                  list.splice(i, 1);
                  reads.splice(i, 1);
                  after();
                },
              },
            ],
          }),
      }),
    );
  });
  container.appendChild(
    addButton(`add a ${title}`, () =>
      pick({
        title: `Add a ${title}`,
        allow,
        onPick: (c) => {
          list.push(c);
          after();
        },
      }),
    ),
  );
}

function renderCount() {
  const rs = currentRuleset();
  const hand = state.hand;
  const held = hand.concealed.length + (hand.win_tile ? 1 : 0) + 3 * hand.melds.length;
  const el = $("tile-count");
  el.textContent = rs && rs.tiles ? `${held} of ${rs.tiles} tiles` : `${held} tiles`;
  el.classList.toggle("off", Boolean(rs && rs.tiles && held !== rs.tiles));
}

// ---- rules, options and situation ------------------------------------------------------------------

function currentRuleset() {
  return state.rules.find((r) => r.name === state.ruleset) || null;
}

function loadSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_KEY) || "{}");
    state.ruleset = saved.ruleset || null;
    state.options = saved.options || {};
    state.situation = saved.situation || {};
    if (saved.hand && Array.isArray(saved.hand.concealed)) state.hand = { ...emptyHand(), ...saved.hand };
  } catch {
    // a damaged entry is replaced on the next save
  }
}

function saveSettings() {
  try {
    localStorage.setItem(
      STORE_KEY,
      JSON.stringify({
        ruleset: state.ruleset,
        options: state.options,
        situation: state.situation,
        hand: state.hand,
      }),
    );
  } catch {
    // private mode or full storage: the page works, it only forgets
  }
}

async function loadRules() {
  try {
    const response = await fetch("/v1/rules");
    if (!response.ok) throw new Error(`status ${response.status}`);
    const rules = await response.json();
    localStorage.setItem(RULES_KEY, JSON.stringify(rules));
    return rules;
  } catch (err) {
    const cached = localStorage.getItem(RULES_KEY);
    if (cached) return JSON.parse(cached);
    throw err;
  }
}

function renderRules() {
  const select = $("ruleset");
  select.replaceChildren();
  for (const rs of state.rules) {
    const option = document.createElement("option");
    option.value = rs.name;
    option.textContent = rs.scorable ? rs.title : `${rs.title} (cannot be scored)`;
    option.disabled = !rs.scorable;
    select.appendChild(option);
  }
  const scorable = state.rules.filter((r) => r.scorable);
  if (!currentRuleset()?.scorable) state.ruleset = scorable.length ? scorable[0].name : null;
  select.value = state.ruleset || "";
  renderRuleDetails();
}

function renderRuleDetails() {
  const rs = currentRuleset();
  $("rules-note").textContent = rs
    ? `${rs.tiles} tiles, scored in ${rs.unit}.`
    : "No rule set can be scored on this server.";
  $("completeness").textContent = rs ? `How complete: ${rs.completeness}` : "";
  renderOptions(rs);
  renderSituation(rs);
  renderCount();
}

function renderOptions(rs) {
  const box = $("options");
  box.replaceChildren();
  if (!rs) return;
  const values = (state.options[rs.name] = state.options[rs.name] || {});
  for (const opt of rs.options) {
    const value = opt.name in values ? values[opt.name] : opt.default;
    const set = (v) => {
      if (v === opt.default) delete values[opt.name];
      else values[opt.name] = v;
      saveSettings();
      scheduleScore();
    };
    let control;
    if (opt.type === "bool") {
      control = checkbox(opt.name.replace(/_/g, " "), value, set);
    } else if (opt.choices) {
      control = selectField(opt.name.replace(/_/g, " "), opt.choices, value, (v) => {
        const original = opt.choices.find((c) => String(c) === v);
        set(original === undefined ? v : original);
      });
    } else {
      control = inputField(opt.name.replace(/_/g, " "), opt.type === "str" ? "text" : "number", value, (v) => {
        set(opt.type === "str" ? v : Number(v));
      });
    }
    control.title = opt.help;
    const help = document.createElement("p");
    help.className = "note";
    help.textContent = `${opt.help} (${opt.origin})`;
    box.append(control, help);
  }
}

function renderSituation(rs) {
  const box = $("situation");
  box.replaceChildren();
  if (!rs) return;
  for (const field of rs.fields) {
    if (field.name === "flowers") continue; // edited with the hand's tiles
    const label = FIELD_LABELS[field.name] || field.name.replace(/_/g, " ");
    const has = field.name in state.situation;
    const value = has ? state.situation[field.name] : field.default;
    const set = (v) => {
      if (JSON.stringify(v) === JSON.stringify(field.default)) delete state.situation[field.name];
      else state.situation[field.name] = v;
      saveSettings();
      scheduleScore();
    };
    let control;
    if (field.type === "bool") {
      control = checkbox(label, value, set);
    } else if (field.type === "wind" || field.choices) {
      const choices = field.type === "suit" || field.default === null ? ["", ...field.choices] : field.choices;
      control = selectField(label, choices, value === null ? "" : value, (v) => {
        if (v === "") set(null);
        else set(typeof field.choices[0] === "number" ? Number(v) : v);
      });
    } else if (field.type === "int") {
      control = inputField(label, "number", value, (v) => set(v === "" ? field.default : Math.max(0, Math.trunc(Number(v)))));
    } else if (field.type === "tiles") {
      const row = document.createElement("div");
      control = tileField(label, row);
      const list = has ? state.situation[field.name] : [];
      const after = () => {
        if (list.length) state.situation[field.name] = list;
        else delete state.situation[field.name];
        saveSettings();
        renderSituation(rs);
        scheduleScore();
      };
      renderTileList(row, list, { title: label.toLowerCase().replace(/s$/, ""), after });
    } else if (field.type === "tile") {
      const row = document.createElement("div");
      control = tileField(label, row);
      const choose = () =>
        pick({
          title: label,
          current: value,
          onPick: (c) => {
            set(c);
            renderSituation(rs);
          },
          actions: value ? [{ label: "Clear", danger: true, run: () => (set(null), renderSituation(rs)) }] : [],
        });
      row.appendChild(tileButton(value, { extraClass: value ? "" : "empty", label, onTap: choose }));
    } else {
      const shown = value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);
      control = inputField(label, "text", shown, (v) => {
        if (v.trim() === "") return set(field.default);
        try {
          set(JSON.parse(v));
        } catch {
          set(v);
        }
      });
      control.classList.add("wide");
    }
    box.appendChild(control);
  }
}

// A situation field edited as tiles: its label over a row of tiles (filled by the caller).
function tileField(text, row) {
  const control = document.createElement("div");
  control.className = "wide";
  const title = document.createElement("div");
  title.className = "row-label";
  title.textContent = text;
  row.className = "tiles";
  control.append(title, row);
  return control;
}

function checkbox(text, value, onChange) {
  const label = document.createElement("label");
  label.className = "check";
  const input = document.createElement("input");
  input.type = "checkbox";
  input.checked = Boolean(value);
  input.addEventListener("change", () => onChange(input.checked));
  label.append(input, document.createTextNode(text));
  return label;
}

function selectField(text, choices, value, onChange) {
  const label = document.createElement("label");
  label.className = "field";
  const select = document.createElement("select");
  for (const choice of choices) {
    const option = document.createElement("option");
    option.value = String(choice);
    option.textContent = choice === "" ? "none" : String(choice);
    select.appendChild(option);
  }
  select.value = String(value);
  select.addEventListener("change", () => onChange(select.value));
  label.append(document.createTextNode(text), select);
  return label;
}

function inputField(text, type, value, onChange) {
  const label = document.createElement("label");
  label.className = "field";
  const input = document.createElement("input");
  input.type = type;
  if (type === "number") input.min = "0";
  input.value = value === null || value === undefined ? "" : String(value);
  input.addEventListener("change", () => onChange(input.value));
  label.append(document.createTextNode(text), input);
  return label;
}

// ---- scoring -----------------------------------------------------------------------------------------

function situationFor(rs) {
  const out = {};
  for (const field of rs.fields) {
    if (field.name in state.situation) out[field.name] = state.situation[field.name];
  }
  return out;
}

function handJson() {
  const rs = currentRuleset();
  const hand = state.hand;
  return {
    concealed: [...hand.concealed],
    melds: hand.melds.filter((m) => m.tiles.length).map((m) => ({ ...m, tiles: [...m.tiles] })),
    win_tile: hand.win_tile,
    flowers: [...hand.flowers],
    ...(rs ? situationFor(rs) : {}),
  };
}

function scheduleScore() {
  clearTimeout(state.scoreTimer);
  state.scoreTimer = setTimeout(scoreNow, 120);
}

function handIsEmpty() {
  const hand = state.hand;
  return !hand.concealed.length && !hand.win_tile && !hand.melds.length;
}

async function scoreNow() {
  const rs = currentRuleset();
  const box = $("score");
  if (!rs || handIsEmpty()) {
    box.innerHTML = '<p class="note">Take a photo or enter the tiles.</p>';
    return;
  }
  const seq = ++state.scoreSeq;
  box.classList.add("stale");
  let result;
  try {
    const response = await fetch("/v1/score", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ rules: rs.name, options: state.options[rs.name] || {}, hand: handJson() }),
    });
    result = await response.json();
  } catch {
    result = { ok: false, error: { code: "offline", message: "The server cannot be reached: check the connection." } };
  }
  if (seq !== state.scoreSeq) return; // a newer request is on its way
  box.classList.remove("stale");
  renderScore(result);
}

function renderScore(result) {
  const box = $("score");
  box.replaceChildren();
  if (!result || result.ok === false || result.error) {
    const p = document.createElement("p");
    p.className = "refusal";
    p.textContent = (result && result.error && result.error.message) || "This hand cannot be scored.";
    box.appendChild(p);
    return;
  }
  const total = document.createElement("div");
  total.className = "total";
  const fu = "fu" in result && result.unit !== "fu" ? ` ${result.fu} fu` : "";
  total.textContent = `${result.total} ${result.unit}${fu}`;
  const verdict = document.createElement("div");
  verdict.className = `verdict ${result.winning ? "yes" : "no"}`;
  verdict.textContent = result.winning ? "winning hand" : "not a winning hand under these rules";
  box.append(total, verdict);
  if (result.items.length) {
    const table = document.createElement("table");
    table.id = "patterns";
    for (const item of result.items) {
      const tr = table.insertRow();
      const name = tr.insertCell();
      name.textContent = item.name_en;
      const native = item.name_zh || item.name_ja;
      if (native) {
        const span = document.createElement("span");
        span.className = "native";
        span.textContent = ` ${native}`;
        name.appendChild(span);
      }
      const value = tr.insertCell();
      value.className = "value";
      value.textContent = item.count !== 1 ? `${item.value} × ${item.count}` : String(item.value);
    }
    box.appendChild(heading("Patterns"));
    box.appendChild(table);
  }
  if (result.points) {
    box.appendChild(heading("Points"));
    box.appendChild(keyValues(rowsOf("", result.points)));
  }
  const payments = rowsOf("", result.payments || {});
  if (payments.length) {
    box.appendChild(heading("Payments"));
    box.appendChild(keyValues(payments));
  }
  for (const note of result.notes || []) {
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = note;
    box.appendChild(p);
  }
}

function heading(text) {
  const h = document.createElement("h3");
  h.textContent = text;
  return h;
}

function keyValues(pairs) {
  const table = document.createElement("table");
  table.className = "kv";
  for (const [k, v] of pairs) {
    const tr = table.insertRow();
    tr.insertCell().textContent = k;
    const cell = tr.insertCell();
    cell.className = "value";
    cell.textContent = String(v);
  }
  return table;
}

// Nested settlement objects as [label, value] rows: {"points": {"main": 700}} -> ["points: main", 700].
function rowsOf(prefix, value) {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([k, v]) => {
      const name = k.replace(/_/g, " ");
      return rowsOf(prefix ? `${prefix}: ${name}` : name, v);
    });
  }
  if (value === null || value === undefined) return [];
  return [[prefix, Array.isArray(value) ? value.join(", ") : value]];
}

// ---- the photo ---------------------------------------------------------------------------------------

function setStatus(text, kind = "") {
  const el = $("status");
  el.textContent = text;
  el.className = kind;
}

async function analyzePhoto(file) {
  const rs = currentRuleset();
  if (!rs) return setStatus("No rule set can be scored on this server.", "error");
  const form = new FormData();
  form.append("image", file, file.name || "photo.jpg");
  form.append("rules", rs.name);
  form.append("options", JSON.stringify(state.options[rs.name] || {}));
  form.append("situation", JSON.stringify(situationFor(rs)));
  setStatus(`Reading ${file.name || "the photo"}…`, "busy");
  $("warnings").replaceChildren();
  let response;
  let body;
  try {
    response = await fetch("/v1/analyze", { method: "POST", body: form });
    body = await response.json();
  } catch {
    return setStatus("The server cannot be reached: check the connection and try again.", "error");
  }
  if (!response.ok) {
    return setStatus((body.error && body.error.message) || `The photo was refused (${response.status}).`, "error");
  }
  const rec = body.recognition;
  state.hand = {
    concealed: [...(rec.hand.concealed || [])],
    melds: (rec.hand.melds || []).map((m) => ({ ...m, tiles: [...m.tiles] })),
    win_tile: rec.hand.win_tile || null,
    flowers: [...(rec.hand.flowers || [])],
  };
  const parts = rec.hand_tiles;
  const readOf = (k) => ({
    likely: (rec.tiles[k].alternatives || []).map((a) => a.code),
    unsure: rec.tiles[k].score < UNSURE_BELOW,
  });
  // a meld's tiles as laid out line up with its codes but for a concealed kong's face-down ends (nothing read there)
  const meldReads = (indices, m) =>
    state.hand.melds[m].tiles.map((code, t) => (rec.tiles[indices[t]]?.code === code ? readOf(indices[t]) : undefined));
  state.reads = {
    concealed: parts.concealed.map(readOf),
    melds: parts.melds.map(meldReads),
    win: parts.win_tile === null ? null : readOf(parts.win_tile),
    flowers: parts.flowers.map(readOf),
    add: rec.complete_with || [],
  };
  $("annotated").src = body.annotated_image;
  $("annotated-box").hidden = false;
  for (const warning of rec.warnings || []) {
    const li = document.createElement("li");
    li.textContent = warning;
    $("warnings").appendChild(li);
  }
  setStatus(`${rec.tiles.length} tiles read in ${Math.round(rec.timings_ms.total || 0)} ms. Check them below.`);
  saveSettings();
  renderHand();
  renderScore(body.score);
}

// ---- start ---------------------------------------------------------------------------------------------

async function start() {
  loadSettings();
  $("photo").addEventListener("change", (event) => {
    const file = event.target.files[0];
    if (file) analyzePhoto(file);
    event.target.value = "";
  });
  $("ruleset").addEventListener("change", (event) => {
    state.ruleset = event.target.value;
    saveSettings();
    renderRuleDetails();
    renderHand();
    scheduleScore();
  });
  $("add-meld").addEventListener("click", () => {
    state.hand.melds.push({ type: "chow", tiles: [], open: true });
    changed();
  });
  $("clear-hand").addEventListener("click", () => {
    state.hand = emptyHand();
    state.reads = noReads();
    changed();
  });
  renderHand();
  try {
    state.rules = await loadRules();
  } catch {
    setStatus("The server cannot be reached: the rule sets are not known yet.", "error");
  }
  renderRules();
  saveSettings();
  renderHand();
  scheduleScore();
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
    $("offline-note").textContent = "This page keeps working offline; reading photos and scoring need the server.";
  } else {
    $("offline-note").textContent = "Offline use needs https (or localhost); here the page needs the server.";
  }
  document.body.dataset.ready = "true";
}

start();
