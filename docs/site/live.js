// The live book: a structure's page plays its engine (docs/site/js/<structure>.js, the TypeScript
// engine compiled to a classic script). Generic: it reads the structure's declarations from the
// engine's META (inputs, options, deal inputs, rules) and its worked examples from the page's data.
// Everything it puts in the page is text (textContent), never markup.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("live-data").textContent);
  var modules = window.betspec && window.betspec.modules;
  var module = modules && modules[data.structure];
  var play = document.getElementById("live-play");
  if (!module || !module.ENGINE) {
    play.appendChild(el("p", { class: "live-refusal" }, "The engine of " + data.structure + " did not load."));
    return;
  }
  var Engine = module.ENGINE;
  var META = module.META;
  var words = modules.vocabulary;
  var IllegalAction = modules.runtime.IllegalAction;
  var InvalidTable = modules.runtime.InvalidTable;
  // The cards, where the structure's spec declares its game (GAME) and js/cards.js is loaded: a
  // seeded dealer deals each street as the engine opens it (every board of a double board; a
  // bomb pot's flop before anyone acts), decides what the upcards decide (stud's bring-in, the
  // opener of each later street, an open pair), and the showdown is ranked by the same
  // evaluators the Python dealer settles with, each board paying its share.
  var cardsModule = modules.cards;
  var GAME = cardsModule && module.GAME ? module.GAME : null;
  var dealer = null;
  var hands = 0;

  // ---- the DOM, as text only ----------------------------------------------------------------------

  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      node.setAttribute(name, String(attributes[name]));
    });
    (Array.isArray(children) ? children : children === undefined ? [] : [children]).forEach(function (child) {
      if (child === null || child === undefined || child === false) return;
      node.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
    });
    return node;
  }

  function shown(value) {
    return value === undefined ? "" : JSON.stringify(value);
  }

  function button(label, onClick, attributes) {
    var node = el("button", Object.assign({ type: "button" }, attributes || {}), label);
    node.addEventListener("click", onClick);
    return node;
  }

  // ---- what the engine answers --------------------------------------------------------------------

  /** The case format's observations (betspec's runner, tools/typescript/runner.ts). */
  /** The entries of ``values`` named in ``want``, in want's order. */
  function pick(values, want) {
    var out = {};
    Object.keys(want || {}).forEach(function (name) { out[name] = values[name]; });
    return out;
  }

  function observe(engine, key, want) {
    switch (key) {
      case "to_act": return engine.toAct;
      case "legal": return engine.legalActions().slice().sort();
      case "call": return engine.callAmount;
      case "min_to": return engine.minTo;
      case "max_to": return engine.maxTo;
      case "street": return engine.streetName;
      case "pot": return engine.pot;
      case "stacks": return engine.stacks;
      case "committed": return engine.committed;
      case "round_over": return engine.roundOver;
      case "hand_over": return engine.handOver;
      case "pots": return engine.pots().map(function (p) { return { amount: p.amount, eligible: p.eligible.slice() }; });
      case "paid": return engine.paid;
      // A case names the variables it checks (as the case runner reads it): the others are not its subject.
      case "variables": return pick(engine.variables, want);
      case "next_table": return nextTable(engine);
    }
    return undefined;
  }

  /** The next hand's table once this one is paid, or why there is none yet, as the case runner says it. */
  function nextTable(engine) {
    try {
      return engine.nextTable();
    } catch (error) {
      return "refused: " + error.message;
    }
  }

  function expected(key, value) {
    if (key === "legal") return value.slice().sort();
    if (key === "pots") {
      return value.map(function (p) {
        return { amount: p.amount, eligible: p.eligible.slice().sort(function (a, b) { return a - b; }) };
      });
    }
    return value;
  }

  /** The table's state: each seat's stack and chips in, then the hand's. */
  function stateView(engine, dealt) {
    var toAct = engine.toAct;
    var stacks = engine.stacks, committed = engine.committed, folded = engine.folded;
    var rows = [el("tr", {}, [el("th", {}, "seat"), el("th", {}, "stack"), el("th", {}, "committed"), el("th", {}, "")])];
    for (var seat = 0; seat < engine.seats; seat++) {
      var notes = [];
      if (seat === engine.button) notes.push("button");
      if (folded[seat]) notes.push("folded");
      if (seat === toAct) notes.push("to act");
      var cells = [
        el("td", {}, String(seat)), el("td", { "data-key": "stack" }, String(stacks[seat])),
        el("td", { "data-key": "committed" }, String(committed[seat])), el("td", {}, notes.join(", ")),
      ];
      if (dealt) cells.push(el("td", { "data-key": "cards" }, cardsText(dealt, seat)));
      rows.push(el("tr", { "data-seat": seat, class: seat === toAct ? "live-to-act" : "" }, cells));
    }
    if (dealt) {
      rows[0].appendChild(el("th", {}, "cards"));
      rows.push(el("tr", { class: "live-board" }, [el("td", { colspan: 4 }, "board"), el("td", { "data-key": "board" }, dealt.board.join(" "))]));
      dealt.otherBoards.forEach(function (board, i) {
        var name = "board " + (i + 2);
        rows.push(el("tr", { class: "live-board" }, [el("td", { colspan: 4 }, name), el("td", { "data-key": name }, board.join(" "))]));
      });
    }
    var legal = engine.legalActions();
    var facts = [
      ["street", engine.streetName], ["phase", engine.phase], ["pot", engine.pot],
      ["to_act", toAct], ["legal", legal], ["call", engine.callAmount], ["min_to", engine.minTo],
      ["max_to", engine.maxTo], ["round_over", engine.roundOver], ["hand_over", engine.handOver],
      ["pots", observe(engine, "pots")], ["paid", engine.paid],
    ];
    // What the structure remembers, where it declares anything; the next table once paid.
    if (Object.keys(engine.meta.declaredVariables || {}).length) facts.push(["variables", engine.variables]);
    if (engine.paid) facts.push(["next_table", nextTable(engine)]);
    var list = el("dl", { class: "live-facts" });
    // The words beside a fact where its name alone misleads: once paid the pot in the middle is
    // empty and the pots are what was paid.
    var labels = { pot: "pot (in the middle)", pots: engine.paid ? "pots (paid)" : "pots" };
    facts.forEach(function (fact) {
      list.appendChild(el("dt", {}, labels[fact[0]] || fact[0]));
      list.appendChild(el("dd", { "data-key": fact[0] }, shown(fact[1])));
    });
    return el("div", { class: "live-state" }, [el("table", { class: "live-seats" }, rows), list]);
  }

  /** A seat's cards as the dealer dealt them, an upcard marked with ^. */
  function cardsText(dealt, seat) {
    return dealt.hole[seat].map(function (card, i) { return dealt.up[seat][i] ? "^" + card : card; }).join(" ");
  }

  /** The seats still in (not folded). */
  function stillIn() {
    var live = [];
    engine.folded.forEach(function (out, s) { if (!out) live.push(s); });
    return live;
  }

  /** Deal the cards of street ``index`` to the seats still in: the discards due first (the first
   * cards held, as a visitor would choose at random), a draw standing pat. */
  function dealCards(index, seats) {
    var deal = GAME.deals[index];
    if (!deal) return;
    var live = seats || stillIn();
    if (deal.discard) live.forEach(function (s) { dealer.discard(s, dealer.hole[s].slice(0, deal.discard)); });
    dealer.deal(index, live);
  }

  /** What the upcards just dealt decide for the street's deal, among the spec's deal inputs: who
   * opens it (the best hand showing; razz the lowest) and whether a pair shows (fourth street). */
  function dealtInputs(index) {
    var given = {};
    if (GAME.opening === "position") return given;
    var ups = dealer.upcards(stillIn());
    if ("opener" in META.dealInputs) given.opener = cardsModule.opener(GAME, ups, engine.button);
    if ("open_pair" in META.dealInputs && index === 1) given.open_pair = cardsModule.openPair(ups);
    return given;
  }

  /** The cards of the streets a hand began past, before anyone acts (a bomb pot begins on the flop). */
  function follow() {
    var at = META.streets.indexOf(engine.streetName);
    while (at >= 0 && dealer.street <= at && dealer.street < GAME.deals.length) dealCards(dealer.street);
  }

  /** The board run out to the last street, for a showdown the betting ended early. */
  function runOut() {
    while (dealer.street < GAME.deals.length) dealCards(dealer.street);
  }

  /** A settlement in words: each pot (or each run's share of it) and who took it, and what
   * went back uncalled; a dead hand's pot stays in the middle. */
  function settled(result) {
    var parts = [];
    result.awards.forEach(function (award) {
      var seats = award.eligible.length > 1 ? " (seats " + award.eligible.join(", ") + ")" : "";
      var run = result.awards.some(function (a) { return a.run > 0; }) ? ", run " + (award.run + 1) : "";
      var took = award.winners.length > 1
        ? "split: " + award.winners.map(function (seat, i) { return "seat " + seat + " " + award.shares[i]; }).join(", ")
        : "to seat " + award.winners[0];
      parts.push("pot of " + award.amount + seats + run + " " + took);
    });
    result.returned.forEach(function (chips, seat) {
      if (chips > 0) parts.push(chips + " uncalled back to seat " + seat);
    });
    if (!result.awards.length) parts.push("nobody wins: the pot stays in the middle for the next deal");
    return "Settled: " + parts.join("; ") + ".";
  }

  /** Where a rule is written out: on this page, else on the rule index. */
  function ruleHref(ruleId) {
    var anchor = "rule-" + ruleId.toLowerCase();
    return document.getElementById(anchor) ? "#" + anchor : "rule-index.html?q=" + encodeURIComponent(ruleId);
  }

  /** A refusal or a ruling, with its rule: id, text and source, as the engine carries them. */
  function ruleView(kind, code, message, ruleId, source) {
    var rule = ruleId && META.rules[ruleId];
    var text = rule ? rule[0] : "";
    source = source || (rule ? rule[1] : "");
    // The engine's message ends with the rule's text and source, written out below it.
    var cut = ruleId ? message.indexOf(" Rule " + ruleId + ":") : -1;
    if (cut > 0) message = message.slice(0, cut);
    return el("div", { class: "live-" + kind, "data-rule": ruleId || "", "data-code": code || "" }, [
      el("strong", {}, kind === "refusal" ? "Refused" + (code ? " (" + code + ")" : "") + ": " : "Ruled: "),
      message,
      ruleId ? el("p", {}, [
        "Rule ", el("a", { href: ruleHref(ruleId), class: "live-rule-id" }, ruleId), ": ", text,
      ]) : null,
      source ? el("p", { class: "live-source" }, ["Source: ", source]) : null,
    ]);
  }

  function refusalOf(error) {
    if (error instanceof IllegalAction) return ruleView("refusal", error.code, error.message, error.rule, error.source);
    if (error instanceof InvalidTable) return ruleView("refusal", error.code, error.message, error.rule, "");
    throw error;
  }

  // ---- a worked example, stepped through ----------------------------------------------------------

  function describe(step) {
    var seat = step.seat !== undefined ? "seat " + step.seat + " " : "";
    if ("deal" in step) return "deal " + step.deal + ("with" in step ? " with " + shown(step["with"]) : "");
    if ("act" in step) return seat + step.act + (step.to !== undefined && step.to !== null ? " to " + step.to : "");
    if ("chips" in step) return seat + "pushes " + shown(step.chips) + ("say" in step ? ", says " + shown(step.say) : "");
    if ("say" in step) return seat + "says " + shown(step.say);
    if ("out_of_turn" in step) return seat + "declares out of turn " + shown(step.out_of_turn);
    if ("timeout" in step) return seat + "times out";
    if ("settle" in step) return "settle " + shown(step.settle);
    return "(checks only)";
  }

  function apply(engine, step) {
    if ("deal" in step) engine.deal(step.deal, step["with"] || {});
    else if ("act" in step) engine.act(step.seat, step.act, step.to === undefined ? null : step.to);
    else if ("chips" in step) return engine.push(step.seat, step.chips, step.say === undefined ? null : step.say);
    else if ("say" in step) return engine.declare(step.seat, step.say);
    else if ("out_of_turn" in step) {
      var said = step.out_of_turn;
      engine.declareOutOfTurn(step.seat, said.act, said.to === undefined ? null : said.to);
    } else if ("timeout" in step) engine.timeout(step.seat);
    else if ("settle" in step) {
      var s = step.settle;
      return engine.settle(s.ranking === undefined ? null : s.ranking, {
        runs: s.runs === undefined ? null : s.runs, oddChipSeat: s.odd_chip_seat === undefined ? null : s.odd_chip_seat,
        shown: s.shown === undefined ? null : s.shown, made: s.made === undefined ? null : s.made,
      });
    }
    return null;
  }

  function build(kase) {
    return new Engine(kase.table, kase.options || {}, kase.start || null);
  }

  function stepper(anchor, kase) {
    var heading = document.getElementById(anchor);
    if (!heading) return;
    var steps = kase.steps || [];
    var at = 0;
    var panel = el("div", { class: "live-example", "data-example": anchor });
    var controls = el("p", { class: "live-controls" });
    var status = el("p", { class: "live-status", role: "status" });
    var body = el("div", {});
    function show() {
      body.textContent = "";
      var engine;
      try {
        engine = build(kase);
      } catch (error) {
        body.appendChild(refusalOf(error));
        status.textContent = "The engine refuses this table.";
        return;
      }
      var last = null;
      for (var i = 0; i < at; i++) {
        var step = steps[i];
        last = { step: step, ruling: null, error: null };
        try {
          last.ruling = apply(engine, step);
        } catch (error) {
          if (!(error instanceof IllegalAction)) throw error;
          last.error = error;
        }
      }
      status.textContent = at === 0 ? "The table as dealt (" + steps.length + " steps)." :
        "After step " + at + " of " + steps.length + ": " + describe(last.step) + ".";
      panel.setAttribute("data-at", String(at));
      if (last && last.error) body.appendChild(refusalOf(last.error));
      if (last && last.ruling) {
        var r = last.ruling;
        body.appendChild(ruleView("ruling", r.action, r.action + (r.to !== null ? " to " + r.to : "") +
          (r.returned ? ", " + r.returned + " returned" : "") + (r.completed ? ", completed by " + r.completed : ""),
          r.rule, r.source));
      }
      body.appendChild(stateView(engine));
      var expect = last ? last.step.expect : null;
      if (expect) {
        var rows = [el("tr", {}, [el("th", {}, "the case expects"), el("th", {}, "value"), el("th", {}, "the engine")])];
        Object.keys(expect).forEach(function (key) {
          var want = expected(key, expect[key]);
          var got = observe(engine, key, want);
          var same = JSON.stringify(want) === JSON.stringify(got);
          rows.push(el("tr", { "data-expect": key, class: same ? "live-same" : "live-differs" }, [
            el("td", {}, key), el("td", {}, shown(want)), el("td", { "data-got": key }, shown(got) + (same ? " \u2713" : " \u2717")),
          ]));
        });
        body.appendChild(el("table", { class: "live-expect" }, rows));
      }
    }
    function go(to) {
      at = Math.max(0, Math.min(steps.length, to));
      show();
    }
    controls.appendChild(button("Restart", function () { go(0); }, { "data-go": "start" }));
    controls.appendChild(button("Previous step", function () { go(at - 1); }, { "data-go": "back" }));
    controls.appendChild(button("Next step", function () { go(at + 1); }, { "data-go": "next" }));
    controls.appendChild(button("To the end", function () { go(steps.length); }, { "data-go": "end" }));
    panel.appendChild(el("p", {}, el("strong", {}, "Step through it on the engine:")));
    panel.appendChild(controls);
    panel.appendChild(status);
    panel.appendChild(body);
    // After the example's own blocks: before the next heading.
    var after = heading;
    while (after.nextElementSibling && !/^H[1-3]$/.test(after.nextElementSibling.tagName) &&
           after.nextElementSibling.tagName !== "SCRIPT") {
      after = after.nextElementSibling;
    }
    after.parentNode.insertBefore(panel, after.nextSibling);
    show();
  }

  // ---- play a hand --------------------------------------------------------------------------------

  /** A declared input's or option's starting value: its default, else its example, else a seat 0;
   *  for what the dealer gives hand by hand (who holds openers), the example where there is one:
   *  a table dealt to play on shows the rule at work, not its idle default. */
  function starting(declared) {
    if (declared.hand && declared.example !== undefined && declared.example !== null) return declared.example;
    if (declared.default !== undefined) return declared.default;
    if (declared.example !== undefined) return declared.example;
    if (declared.type === "seat") return 0;
    return undefined;
  }

  function field(prefix, declared) {
    var id = "live-" + prefix + "-" + declared.name;
    var value = starting(declared);
    var input;
    if (declared.type === "bool") {
      input = el("input", { type: "checkbox", id: id, "data-name": declared.name, "data-kind": "bool" });
      input.checked = Boolean(value);
    } else if (declared.type === "choice" && declared.choices) {
      input = el("select", { id: id, "data-name": declared.name, "data-kind": "text" },
        declared.choices.map(function (choice) { return el("option", { value: choice }, choice); }));
      input.value = String(value);
    } else {
      input = el("input", { type: "text", id: id, "data-name": declared.name, "data-kind": "json", size: 18 });
      input.value = value === undefined ? "" : JSON.stringify(value);
    }
    var notes = [declared.type + (declared.perSeat ? ", per seat" : "")];
    if (declared.items) notes.push(declared.items.join(", "));
    if (declared.minimum !== undefined && declared.minimum !== null) notes.push("at least " + declared.minimum);
    if (declared.maximum !== undefined && declared.maximum !== null) notes.push("at most " + declared.maximum);
    if (declared.required) notes.push("required");
    if (declared["default"] !== undefined) notes.push("default " + shown(declared["default"]));
    return el("label", { class: "live-field" }, [el("code", {}, declared.name), " ", input, el("small", {}, " (" + notes.join("; ") + ")")]);
  }

  /** The values of a form's fields: an empty field is not given (its default applies). */
  function values(container) {
    var out = {};
    var bad = [];
    Array.prototype.forEach.call(container.querySelectorAll("[data-name]"), function (input) {
      var name = input.getAttribute("data-name");
      var kind = input.getAttribute("data-kind");
      if (kind === "bool") out[name] = input.checked;
      else if (kind === "text") out[name] = input.value;
      else if (input.value.trim() !== "") {
        try { out[name] = JSON.parse(input.value); } catch (e) { bad.push(name); }
      }
    });
    if (bad.length) throw new Error("not JSON: " + bad.join(", "));
    return out;
  }

  var engine = null;
  var setup = el("div", { class: "live-setup" });
  var tableFields = el("fieldset", {}, [el("legend", {}, "Table")]);
  var stacks = el("input", { type: "text", id: "live-stacks", value: "[1000, 1000, 1000]", size: 24 });
  var buttonSeat = el("input", { type: "number", id: "live-button", value: "0", min: 0, style: "width: 4em" });
  tableFields.appendChild(el("label", { class: "live-field" }, [el("code", {}, "stacks"), " ", stacks, el("small", {}, " (one per seat, clockwise)")]));
  tableFields.appendChild(el("label", { class: "live-field" }, [el("code", {}, "button"), " ", buttonSeat]));
  var inputs = el("div", { id: "live-inputs" });
  Object.keys(META.inputs).forEach(function (name) { inputs.appendChild(field("input", META.inputs[name])); });
  tableFields.appendChild(inputs);
  var optionFields = el("fieldset", { id: "live-options" }, [el("legend", {}, "Options")]);
  Object.keys(META.options).forEach(function (name) { optionFields.appendChild(field("option", META.options[name])); });
  setup.appendChild(tableFields);
  setup.appendChild(optionFields);
  var message = el("div", { id: "live-message", role: "status" });
  var state = el("div", { id: "live-table" });
  var actions = el("div", { id: "live-actions" });
  var log = el("ol", { id: "live-log" });

  function note(node) {
    message.textContent = "";
    if (node) message.appendChild(node);
  }

  function logged(text) {
    log.appendChild(el("li", {}, text));
  }

  /** Run `doing` on the hand: a refusal explained (the hand unchanged), else the table redrawn. */
  function attempt(what, doing) {
    try {
      var result = doing();
      logged(what);
      if (result && result.rule) {
        note(ruleView("ruling", result.action, what + ": ruled " + result.action + (result.to !== null && result.to !== undefined ? " to " + result.to : ""), result.rule, result.source));
      } else if (result && result.awards) {
        note(el("p", { class: "live-settled" }, settled(result)));
      } else {
        note(null);
      }
    } catch (error) {
      if (!(error instanceof IllegalAction)) throw error;
      logged(what + ": refused (" + error.code + ", rule " + error.rule + ")");
      note(refusalOf(error));
    }
    redraw();
  }

  function deal(table) {
    log.textContent = "";
    try {
      var given = table || Object.assign({ stacks: JSON.parse(stacks.value), button: Number(buttonSeat.value) }, values(inputs));
      dealer = null;
      if (GAME && Array.isArray(given.stacks) && given.stacks.length >= 2 && given.stacks.length <= 10) {
        // The first street dealt before the engine is: its upcards decide who brings in (stud).
        hands += 1;
        dealer = new cardsModule.Dealer(GAME, given.stacks.length, data.structure + "/" + hands);
        dealer.chooseBoards(given);
        var seats = given.stacks.map(function (_, s) { return s; });
        dealCards(0, seats);
        if (GAME.opening !== "position" && "bring_in_seat" in META.inputs) {
          given = Object.assign({}, given, { bring_in_seat: cardsModule.bringInSeat(GAME, dealer.upcards(seats)) });
        }
      }
      engine = new Engine(given, values(optionFields), null);
      if (dealer) follow();
      logged("dealt " + shown(given));
      note(null);
    } catch (error) {
      engine = null;
      note(error instanceof InvalidTable ? refusalOf(error) : el("p", { class: "live-refusal" }, String(error.message || error)));
    }
    redraw();
  }

  function wordChoice(id) {
    var options = [el("option", { value: "" }, "(nothing)")].concat(words.DECLARATIONS.map(function (word) {
      return el("option", { value: word }, word);
    }));
    return el("select", { id: id }, options);
  }

  /** What the words field says: a word, a wager with its amount, or nothing. */
  function saying(select, amount) {
    var word = select.value;
    if (!word) return null;
    if (words.WAGERS.indexOf(word) >= 0 && amount.value.trim() !== "") return { act: word, to: Number(amount.value) };
    return word;
  }

  function redraw() {
    state.textContent = "";
    actions.textContent = "";
    if (!engine) return;
    state.appendChild(stateView(engine, dealer));
    var toAct = engine.toAct;
    var seat = el("input", { type: "number", id: "live-seat", min: 0, max: engine.seats - 1, value: toAct === null ? 0 : toAct });
    actions.appendChild(el("p", {}, [el("label", {}, ["Acting seat ", seat]),
      el("small", {}, toAct === null ? " (nobody is to act)" : " (seat " + toAct + " is to act)")]));
    function who() { return Number(seat.value); }
    var legal = engine.legalActions();
    if (legal.length) {
      var row = el("p", { class: "live-legal" }, "Legal: ");
      legal.forEach(function (action) {
        if (words.WAGERS.indexOf(action) >= 0) {
          var to = el("input", { type: "number", "data-to": action, value: engine.minTo === null ? "" : engine.minTo, min: engine.minTo, max: engine.maxTo });
          row.appendChild(el("span", { class: "live-wager" }, [
            button(action + " to", function () {
              attempt("seat " + who() + " " + action + " to " + to.value, function () { return engine.act(who(), action, Number(to.value)); });
            }, { "data-action": action }),
            " ", to, el("small", {}, " (" + engine.minTo + " to " + engine.maxTo + ")"), " ",
          ]));
        } else {
          row.appendChild(button(action + (action === "call" ? " " + engine.callAmount : ""), function () {
            attempt("seat " + who() + " " + action, function () { return engine.act(who(), action, null); });
          }, { "data-action": action }));
          row.appendChild(document.createTextNode(" "));
        }
      });
      actions.appendChild(row);
      // Chips pushed, with words or none; or words alone (a verbal declaration).
      var chips = el("input", { type: "text", id: "live-chips", size: 14, placeholder: "100, 100, 25" });
      var pushSay = wordChoice("live-push-say");
      var pushTo = el("input", { type: "number", id: "live-push-to", placeholder: "to" });
      actions.appendChild(el("p", {}, [
        "Push chips ", chips, " saying ", pushSay, " ", pushTo, " ",
        button("Push", function () {
          var pushed = chips.value.split(/[\s,]+/).filter(function (w) { return w; }).map(Number);
          var say = saying(pushSay, pushTo);
          attempt("seat " + who() + " pushes " + shown(pushed) + (say ? " saying " + shown(say) : ""), function () { return engine.push(who(), pushed, say); });
        }, { id: "live-push" }),
      ]));
      var declareSay = wordChoice("live-declare-say");
      var declareTo = el("input", { type: "number", id: "live-declare-to", placeholder: "to" });
      actions.appendChild(el("p", {}, [
        "Say ", declareSay, " ", declareTo, " ",
        button("Declare", function () {
          var say = saying(declareSay, declareTo);
          attempt("seat " + who() + " says " + shown(say), function () { return engine.declare(who(), say); });
        }, { id: "live-declare" }),
      ]));
    }
    var next = engine.nextStreet;
    if (engine.roundOver && !engine.handOver && next) {
      var dealFields = el("span", {});
      Object.keys(META.dealInputs).forEach(function (name) { dealFields.appendChild(field("deal", META.dealInputs[name])); });
      actions.appendChild(el("p", {}, [
        button("Deal the " + next, function () {
          var given;
          try { given = values(dealFields); } catch (e) { note(el("p", { class: "live-refusal" }, e.message)); return; }
          attempt("deal " + next, function () {
            if (!dealer) return engine.deal(next, given);
            // The cards first where the upcards decide the deal's inputs (stud), else once the engine deals.
            var index = META.streets.indexOf(next);
            if (GAME.opening === "position") {
              var result = engine.deal(next, given);
              dealCards(index);
              return result;
            }
            if (dealer.street <= index) dealCards(index);
            return engine.deal(next, Object.assign({}, given, dealtInputs(index)));
          });
        }, { id: "live-deal" }), " ", dealFields,
      ]));
    }
    if (engine.handOver && !engine.paid) {
      var live = stillIn();
      var ranking = el("input", { type: "text", id: "live-ranking", value: JSON.stringify(live), size: 18 });
      actions.appendChild(el("p", {}, [
        button("Settle", function () {
          var order;
          try { order = JSON.parse(ranking.value); } catch (e) { note(el("p", { class: "live-refusal" }, "the ranking is not JSON")); return; }
          attempt("settle " + shown(order), function () { return engine.settle(order); });
        }, { id: "live-settle" }),
        " ranking, best first (seats, or lists of seats that tie) ", ranking,
      ]));
      if (dealer) actions.appendChild(el("p", {}, [button("Settle by the cards", settleByCards, { id: "live-settle-cards" }),
        " the showdown ranked as the spec's game ranks it (", GAME.showdown.join(", then "), ")"]));
    }
    if (engine.paid) {
      actions.appendChild(el("p", {}, button("Next hand", function () {
        // The next table as the engine gives it; an input each hand gives anew (a hand input) from the form.
        var table = engine.nextTable();
        var given;
        try { given = values(inputs); } catch (e) { given = {}; }
        Object.keys(META.inputs).forEach(function (name) {
          if (META.inputs[name].hand && !(name in table) && name in given) table[name] = given[name];
        });
        deal(table);
      }, { id: "live-next-hand" })));
    }
  }

  /** Settle as the dealer ranks the cards: every pot contested ranked by the showdown, each
   * seat's cards shown (the spec's payments outside the pot read them). */
  function settleByCards() {
    var contested = {};
    engine.pots().forEach(function (pot) { if (pot.eligible.length > 1) pot.eligible.forEach(function (s) { contested[s] = true; }); });
    var seats = Object.keys(contested).map(Number);
    attempt("settle by the cards", function () {
      if (!seats.length) return engine.settle(null, { shown: showing(stillIn()), made: making(stillIn()) });
      runOut();
      // Each board pays its part of every pot (a split game's board its high and low halves):
      // one run per part, as the Python dealer settles a double board.
      var runs = [];
      dealer.showdowns(seats).forEach(function (ranked) {
        var given = cardsModule.settlementRankings(ranked);
        if (given.runs) runs = runs.concat(given.runs); else runs.push(given.ranking);
      });
      var cards = { shown: showing(seats), made: making(seats) };
      return runs.length > 1 ? engine.settle(null, Object.assign({ runs: runs }, cards)) : engine.settle(runs[0], cards);
    });
  }

  function showing(seats) {
    var out = {};
    seats.forEach(function (s) { out[s] = dealer.hole[s].slice(); });
    return out;
  }

  /** What each seat's hand makes, where a payment names the hands it pays for (a high-hand bonus). */
  function making(seats) {
    if (!(engine.meta.payments || []).some(function (p) { return p.makes !== undefined; })) return null;
    var out = {};
    seats.forEach(function (s) {
      var hand = cardsModule.made(GAME.showdown[0], dealer.hole[s], dealer.board);
      if (hand !== null) out[s] = hand;
    });
    return out;
  }

  play.appendChild(setup);
  play.appendChild(el("p", {}, button("Deal", function () { deal(null); }, { id: "live-deal-table" })));
  play.appendChild(message);
  play.appendChild(state);
  play.appendChild(actions);
  play.appendChild(el("details", {}, [el("summary", {}, "What happened"), log]));
  deal(null);

  data.examples.forEach(function (example) { stepper(example.anchor, example.case); });
})();
