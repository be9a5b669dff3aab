/* The guest check-in page: shows the fields that apply, one guest per step, saves progress as
   the guest goes, draws signatures, and submits as JSON showing each problem beside its field.
   The server validates everything. Without this script the page is what the server sends: the
   whole party on one page, posted as an ordinary form; the script only turns it into steps.

   Steps on every screen width, wide ones included: one behaviour everywhere is simpler to
   explain and to test, and a single guest's step is short on a wide screen too. */
(function () {
  "use strict";
  var form = document.getElementById("checkin-form");
  if (!form) { return; }
  var token = form.getAttribute("data-token");
  var lang = form.getAttribute("data-lang");
  var arrival = form.getAttribute("data-arrival");
  var state = document.getElementById("save-state");
  var summary = document.getElementById("summary");
  var saveTimer = null;
  var saving = false;
  var dirty = false;
  // Problems a value alone settles: once the field holds one, its message goes at once. Any
  // other problem (a check digit, a date in the future) goes when the server agrees (save()).
  var SETTLED_BY_A_VALUE = ["msg.required", "msg.signature", "msg.choice", "msg.choice_of",
                            "msg.country",
                            "msg.consent"];

  function each(list, action) { Array.prototype.forEach.call(list, action); }
  function text(name) { return form.getAttribute("data-" + name) || ""; }

  function ageOn(birth, day) {
    var b = birth.split("-").map(Number), d = day.split("-").map(Number);
    var age = d[0] - b[0];
    if (d[1] < b[1] || (d[1] === b[1] && d[2] < b[2])) { age -= 1; }
    return age;
  }

  function value(guest, name) {
    var input = document.getElementById("g" + guest + "-" + name);
    return input ? input.value : "";
  }

  /* Fields that apply only in a case: born in Italy, a Spanish document, a minor, 14 or over. */
  function applyConditions() {
    each(form.querySelectorAll("[data-guest]"), function (block) {
      var guest = block.getAttribute("data-guest");
      var birth = value(guest, "birth_date");
      var age = /^\d{4}-\d{2}-\d{2}$/.test(birth) ? ageOn(birth, arrival) : null;
      each(block.querySelectorAll(".field"), function (field) {
        var show = true;
        var when = field.getAttribute("data-when");
        if (when) {
          // "!IT": any value but IT, once one is chosen.
          var wanted = field.getAttribute("data-when-value"), given = value(guest, when);
          show = wanted.charAt(0) === "!" ? (given !== "" && given !== wanted.slice(1))
                                          : given === wanted;
        }
        var also = field.getAttribute("data-also");
        if (also && show) {
          show = field.getAttribute("data-also-values").split(" ").indexOf(value(guest, also)) >= 0;
        }
        var unless = field.getAttribute("data-unless");  // "name=value name=value": all hold
        if (unless && show) {
          show = !unless.split(" ").every(function (pair) {
            var at = pair.indexOf("=");
            return value(guest, pair.slice(0, at)) === pair.slice(at + 1);
          });
        }
        var minAge = field.getAttribute("data-min-age");
        var maxAge = field.getAttribute("data-max-age");
        if (minAge !== null && age !== null && age < Number(minAge)) { show = false; }
        if (maxAge !== null && (age === null || age > Number(maxAge))) { show = false; }
        field.hidden = !show;
      });
      each(block.querySelectorAll(".section-document"), function (section) {
        section.hidden = section.querySelectorAll(".field:not([hidden])").length === 0;
      });
      if (block.classList.contains("sign-guest")) {  // a child under 14 does not sign
        block.hidden = block.querySelectorAll(".field:not([hidden])").length === 0;
      }
    });
  }

  function collect() {
    var guests = [];
    each(form.querySelectorAll("[name^='g']"), function (input) {
      var match = /^g(\d+)\.(\w+)$/.exec(input.name);
      if (!match) { return; }
      var index = Number(match[1]);
      while (guests.length <= index) { guests.push({}); }
      var field = input.closest(".field");
      if (input.value && !(field && field.hidden)) { guests[index][match[2]] = input.value; }
    });
    return { lang: lang, consent: document.getElementById("consent").checked, guests: guests };
  }

  function post(path, body) {
    return fetch("/checkin/" + token + path, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(body)
    });
  }

  /* The draft saved, and what the final answer would still lack (every guest, every field). */
  function check() {
    var body = collect();
    body.check = true;
    return post("/progress", body).then(function (response) {
      if (!response.ok) { throw new Error("HTTP " + response.status); }
      return response.json();
    }).then(function (reply) { return reply.errors || []; });
  }

  function say(words) { state.textContent = words; }

  /* --- problems beside their fields ------------------------------------------------------- */

  function fieldId(path) {
    var match = /^guests\[(\d+)\]\.(\w+)$/.exec(path);
    return match ? "g" + match[1] + "-" + match[2] : path;
  }

  function shownErrors(scope) {
    return Array.prototype.slice.call(scope.querySelectorAll(".error[id]:not([hidden])"));
  }

  /* The element that carries aria-invalid: the input, the search box of a country list
     (country-search.js), or the signature's canvas. */
  function invalidTarget(id) {
    var input = document.getElementById(id);
    var search = input && input.getAttribute("data-search");
    if (search) { return document.getElementById(search); }
    if (input && input.type !== "hidden") { return input; }
    var message = document.getElementById(id + "-error");
    var pad = message && message.closest(".field") && message.closest(".field").querySelector(".signature");
    return pad ? pad.querySelector("canvas") : null;
  }

  function describedBy(element, id, present) {
    var ids = (element.getAttribute("aria-describedby") || "").split(" ").filter(function (x) {
      return x && x !== id;
    });
    if (present) { ids.push(id); }
    if (ids.length) { element.setAttribute("aria-describedby", ids.join(" ")); }
    else { element.removeAttribute("aria-describedby"); }
  }

  function markInvalid(id, words, code) {
    var message = document.getElementById(id + "-error");
    if (!message) { return null; }
    var field = message.closest(".field");
    if (field) { field.hidden = false; }
    message.textContent = words;
    message.hidden = false;
    message.setAttribute("data-code", code || "");
    var target = invalidTarget(id);
    if (target) {
      target.setAttribute("aria-invalid", "true");
      describedBy(target, id + "-error", true);
      var pad = target.closest(".signature");
      if (pad) { pad.classList.add("invalid"); }
    }
    return target || message;
  }

  /* The field is valid again: its message goes, and it says so to assistive technology. */
  function clearInvalid(id) {
    var message = document.getElementById(id + "-error");
    if (!message || message.hidden) { return; }
    message.hidden = true;
    message.textContent = "";
    message.removeAttribute("data-code");
    var target = invalidTarget(id);
    if (target) {
      target.setAttribute("aria-invalid", "false");
      describedBy(target, id + "-error", false);
      var pad = target.closest(".signature");
      if (pad) { pad.classList.remove("invalid"); }
    }
    settled();
  }

  function clearErrors(scope) {
    shownErrors(scope).forEach(function (message) { clearInvalid(message.id.slice(0, -6)); });
    settled();
  }

  /* The summary at the top and the marks on the progress line follow what is still wrong. */
  function settled() {
    if (!shownErrors(form).length) { summary.hidden = true; }
    markSteps();
  }

  /* Errors from the server: shown beside their fields; the step of the first one is opened. */
  function showErrors(errors, summaryText) {
    var first = null;
    errors.forEach(function (problem) {
      var shown = markInvalid(fieldId(problem.field), problem.message, problem.code);
      // The first in the page's order, whatever the order of the server's list.
      if (shown && (!first || (shown.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING))) {
        first = shown;
      }
    });
    summary.textContent = summaryText || text("summary");
    summary.hidden = false;
    markSteps();
    if (first && steps.length) { show(stepOf(first), false); }
    if (first) {
      if (first.tagName === "CANVAS") { first.setAttribute("tabindex", "-1"); }  // focusable
      first.focus({ preventScroll: true });
      if (first.scrollIntoView) { first.scrollIntoView({ block: "center" }); }
    } else {
      summary.focus();
    }
  }

  /* A field being fixed: its message goes as soon as the value settles it, or the server says. */
  function edited(input) {
    if (!input.id) { return; }
    var message = document.getElementById(input.id + "-error");
    if (!message || message.hidden) { return; }
    var filled = input.type === "checkbox" ? input.checked : input.value.trim() !== "";
    if (filled && SETTLED_BY_A_VALUE.indexOf(message.getAttribute("data-code")) >= 0) {
      clearInvalid(input.id);
    }
  }

  /* What the server still finds wrong: every message it no longer gives is cleared (never one
     added while the guest types). Consent is not part of a draft's check: left to edited(). */
  function forgive(errors) {
    var still = {};
    errors.forEach(function (problem) { still[fieldId(problem.field)] = problem.message; });
    shownErrors(form).forEach(function (message) {
      var id = message.id.slice(0, -6);
      if (!/^g\d+-/.test(id)) { return; }
      if (!(id in still)) { clearInvalid(id); }
      else if (still[id] !== message.textContent) { message.textContent = still[id]; }
    });
  }

  /* --- saving as the guest goes -------------------------------------------------------------- */

  function save() {
    if (saving) { dirty = true; return; }
    saving = true; dirty = false;
    var recheck = shownErrors(form).length > 0;
    say(text("saving"));
    var body = collect();
    if (recheck) { body.check = true; }
    post("/progress", body).then(function (response) {
      say(response.ok ? text("saved") : text("offline"));
      if (recheck && response.ok) {
        return response.json().then(function (reply) {
          if (!dirty) { forgive(reply.errors || []); }  // else the next save answers for the latest
        });
      }
    }).catch(function () {
      say(text("offline"));
    }).then(function () {
      saving = false;
      if (dirty) { schedule(); }
    });
  }

  function schedule() {
    clearTimeout(saveTimer);
    // Sooner while a message is shown: it should go as soon as the field is right.
    saveTimer = setTimeout(save, shownErrors(form).length ? 300 : 900);
  }

  /* --- steps: each guest, then the signatures (where the form has them) and the consent ---- */

  var steps = [];
  var current = 0;
  var progressText, progressBar, stepNav, backButton, nextButton;

  function stepOf(element) {
    for (var i = 0; i < steps.length; i += 1) {
      if (steps[i].contains(element)) { return i; }
    }
    return current;
  }

  function stepName(index) {
    if (index < steps.length - 1) {
      return text("step-guest").replace("{n}", index + 1).replace("{total}", steps.length - 1);
    }
    return form.querySelector(".sign-guest") ? text("step-sign") : text("step-confirm");
  }

  function markSteps() {
    if (!progressBar) { return; }
    each(progressBar.children, function (item, i) {
      item.className = i < current ? "done" : (i === current ? "current" : "");
      if (shownErrors(steps[i]).length) { item.classList.add("has-error"); }
      if (i === current) { item.setAttribute("aria-current", "step"); }
      else { item.removeAttribute("aria-current"); }
    });
  }

  function show(index, moveFocus) {
    current = Math.max(0, Math.min(index, steps.length - 1));
    steps.forEach(function (step, i) { step.hidden = i !== current; });
    stepNav.hidden = current === steps.length - 1;  // the last step has its own buttons
    backButton.hidden = current === 0;
    progressText.textContent = stepName(current);
    document.body.classList.toggle("later-step", current > 0);
    if (current === steps.length - 1) {  // who signs which box, by name
      review();
      each(form.querySelectorAll(".sign-guest"), function (block) {
        var guest = block.getAttribute("data-guest");
        var name = (value(guest, "first_name") + " " + value(guest, "last_name")).trim();
        block.querySelector(".sign-title").textContent =
          block.getAttribute("data-title") + (name ? " · " + name : "");
      });
    }
    markSteps();
    if (moveFocus) {
      progressText.focus({ preventScroll: true });
      progressText.parentNode.scrollIntoView({ block: "start" });
    }
  }

  /* Steps taken with Next are history entries: a phone's Back gesture goes to the last step. */
  function go(index) {
    show(index, true);
    history.pushState({ step: current }, "");
  }

  function next() {
    clearTimeout(saveTimer);
    var step = steps[current];
    nextButton.disabled = true;
    say(text("checking"));
    check().then(function (errors) {
      nextButton.disabled = false;
      say(text("saved"));
      clearErrors(step);
      var mine = errors.filter(function (problem) {
        var message = document.getElementById(fieldId(problem.field) + "-error");
        return message && step.contains(message);
      });
      if (mine.length) { showErrors(mine); } else { go(current + 1); }
    }, function () {
      // No answer (a train, a tunnel): the guest goes on; the final submit checks everything.
      nextButton.disabled = false;
      say(text("offline"));
      go(current + 1);
    });
  }

  /* --- the review: every guest as entered, each with its Edit button, above the consent ---- */

  function shownValue(input) {
    if (input.tagName === "SELECT") {
      var option = input.options[input.selectedIndex];
      return option && option.value ? option.textContent : "";
    }
    if (input.type === "date" && /^\d{4}-\d{2}-\d{2}$/.test(input.value)) {
      var parts = input.value.split("-").map(Number);
      return new Date(Date.UTC(parts[0], parts[1] - 1, parts[2])).toLocaleDateString(
        document.documentElement.lang, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
    }
    return input.value.trim();
  }

  function review() {
    var last = steps[steps.length - 1];
    var box = document.getElementById("review");
    if (!box) {
      box = element("section", "card review");
      box.id = "review";
      box.setAttribute("aria-labelledby", "review-title");
      last.insertBefore(box, last.firstChild);
    }
    box.textContent = "";
    var title = element("h2", "", text("review-title"));
    title.id = "review-title";
    box.appendChild(title);
    box.appendChild(element("p", "hint", text("review-intro")));
    steps.slice(0, -1).forEach(function (fieldset, index) {
      var guest = element("div", "review-guest");
      var head = element("div", "review-head");
      var name = (value(index, "first_name") + " " + value(index, "last_name")).trim();
      var heading = element("h3", "", fieldset.getAttribute("data-title") + (name ? " · " + name : ""));
      heading.id = "review-guest-" + index;
      var edit = element("button", "button-link review-edit", text("edit"));
      edit.type = "button";
      edit.setAttribute("aria-describedby", heading.id);
      edit.addEventListener("click", function () { go(index); });
      head.appendChild(heading);
      head.appendChild(edit);
      guest.appendChild(head);
      var list = element("dl", "review-list");
      each(fieldset.querySelectorAll(".field"), function (field) {
        var input = field.querySelector("select") || field.querySelector("input:not([type=hidden])");
        var label = field.querySelector("label");
        if (field.hidden || !input || !label || field.closest(".section[hidden]")) { return; }
        var shown = shownValue(input);
        if (!shown) { return; }
        var optional = label.querySelector(".optional");
        var words = label.textContent.replace(optional ? optional.textContent : "", "").trim();
        list.appendChild(element("dt", "", words));
        list.appendChild(element("dd", "", shown));
      });
      guest.appendChild(list);
      box.appendChild(guest);
    });
  }

  function element(tag, className, words) {
    var made = document.createElement(tag);
    if (className) { made.className = className; }
    if (words) { made.textContent = words; }
    return made;
  }

  function setUpSteps() {
    var guests = form.querySelectorAll("fieldset.guest");
    var last = document.getElementById("step-final");
    if (!guests.length || !last) { return; }
    // Everyone signs on the last step, under their name, after reading what they sign.
    var privacy = last.firstElementChild;
    each(guests, function (fieldset) {
      var section = fieldset.querySelector(".section-signature");
      if (!section) { return; }
      var block = element("section", "card sign-guest");
      block.setAttribute("data-guest", fieldset.getAttribute("data-guest"));
      block.setAttribute("data-title", fieldset.getAttribute("data-title"));
      var title = element("h2", "sign-title", fieldset.getAttribute("data-title"));
      title.id = "sign-title-" + fieldset.getAttribute("data-guest");
      block.appendChild(title);
      block.appendChild(section);
      each(section.querySelectorAll("canvas[aria-labelledby]"), function (canvas) {
        canvas.setAttribute("aria-labelledby", title.id + " " + canvas.getAttribute("aria-labelledby"));
      });
      last.insertBefore(block, privacy);
    });
    steps = Array.prototype.slice.call(guests).concat([last]);

    var progress = element("div", "progress");
    progressText = element("p", "progress-text");
    progressText.id = "progress-text";
    progressText.tabIndex = -1;
    progressBar = element("ol", "progress-bar");
    progressBar.setAttribute("aria-label", text("progress"));
    steps.forEach(function (step, i) {
      var item = element("li");
      item.appendChild(element("span", "visually-hidden", stepName(i)));
      progressBar.appendChild(item);
    });
    progress.appendChild(progressText);
    progress.appendChild(progressBar);
    form.insertBefore(progress, form.firstChild);

    var bar = stepNav = element("div", "step-nav");
    backButton = element("button", "button-secondary step-back", text("back"));
    nextButton = element("button", "button-primary step-next", text("next"));
    var lastBack = element("button", "button-secondary step-back", text("back"));
    backButton.type = nextButton.type = lastBack.type = "button";
    bar.appendChild(backButton);
    bar.appendChild(nextButton);
    form.insertBefore(bar, state);
    var actions = last.querySelector(".actions");
    actions.insertBefore(lastBack, actions.firstChild);  // beside the submit button
    nextButton.addEventListener("click", next);
    function back() {
      if (history.state && history.state.step === current) { history.back(); }
      else { show(current - 1, true); history.replaceState({ step: current }, ""); }
    }
    backButton.addEventListener("click", back);
    lastBack.addEventListener("click", back);
    window.addEventListener("popstate", function (event) {
      var step = event.state && typeof event.state.step === "number" ? event.state.step : 0;
      show(step, true);
    });
    form.classList.add("stepped");
    // A reload keeps the step the guest was on: the browser keeps the entry's state (a reload
    // at the signature step once went back to the first guest).
    var kept = history.state && typeof history.state.step === "number" ? history.state.step : null;
    if (kept === null) { history.replaceState({ step: 0 }, ""); }
    // A page sent back with problems opens at the first; a page opened again where the saved
    // answers stop (the server says which: the first unfinished guest, or the review).
    var wrong = shownErrors(form)[0];
    show(wrong ? stepOf(wrong)
         : kept !== null ? kept : Number(form.getAttribute("data-resume")) || 0, false);
  }

  form.addEventListener("input", function (event) {
    applyConditions(); edited(event.target); schedule();
  });
  form.addEventListener("change", function (event) {
    applyConditions(); edited(event.target); schedule();
  });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (steps.length && current < steps.length - 1) { next(); return; }  // Enter in a field
    clearTimeout(saveTimer);
    var button = form.querySelector("button[type=submit]");
    button.disabled = true;
    clearErrors(form);
    post("/submit", collect()).then(function (response) {
      return response.json().then(function (body) { return { status: response.status, body: body }; });
    }).then(function (reply) {
      if (reply.status === 200 && reply.body.next) {
        window.location.assign(reply.body.next);
        return;
      }
      button.disabled = false;
      if (reply.body.errors) { showErrors(reply.body.errors, reply.body.summary); }
      else { say(text("offline")); }
    }).catch(function () {
      button.disabled = false;
      say(text("offline"));
    });
  });

  /* Signatures: drawn with a finger, a pen or the mouse; kept as a PNG data URL. */
  each(form.querySelectorAll(".signature"), function (pad) {
    var canvas = pad.querySelector("canvas");
    var target = document.getElementById(pad.getAttribute("data-target"));
    var context = canvas.getContext("2d");
    var drawing = false, drawn = false, last = null;

    function point(event) {
      var box = canvas.getBoundingClientRect();
      return { x: (event.clientX - box.left) * canvas.width / box.width,
               y: (event.clientY - box.top) * canvas.height / box.height };
    }
    function prepare() {
      context.lineWidth = 3; context.lineCap = "round"; context.lineJoin = "round";
      context.strokeStyle = "#17211e";
    }
    function signed() {
      target.value = canvas.toDataURL("image/png");
      clearInvalid(target.id);  // "sign in the box" goes with the stroke that signs
      schedule();
    }
    prepare();
    if (target.value) {
      var image = new Image();
      image.onload = function () { context.drawImage(image, 0, 0); drawn = true; };
      image.src = target.value;
    }
    canvas.addEventListener("pointerdown", function (event) {
      drawing = true; last = point(event);
      canvas.setPointerCapture(event.pointerId);
      context.beginPath(); context.arc(last.x, last.y, 1.5, 0, Math.PI * 2); context.fill();
      event.preventDefault();
    });
    canvas.addEventListener("pointermove", function (event) {
      if (!drawing) { return; }
      var next = point(event);
      context.beginPath(); context.moveTo(last.x, last.y); context.lineTo(next.x, next.y);
      context.stroke();
      last = next; drawn = true;
    });
    function finish() {
      if (!drawing) { return; }
      drawing = false;
      if (drawn) { signed(); }
    }
    canvas.addEventListener("pointerup", finish);
    canvas.addEventListener("pointercancel", finish);
    /* Without a pointer (a keyboard, a screen reader), the name typed is written as the
       signature. Typing does not trigger the form's own listeners: the pad saves itself. */
    var typed = pad.parentNode.querySelector("[data-signature-for]");
    typed.parentNode.hidden = false;
    typed.addEventListener("input", function (event) {
      event.stopPropagation();
      context.clearRect(0, 0, canvas.width, canvas.height);
      prepare();
      var name = typed.value.trim();
      if (!name) { drawn = false; target.value = ""; schedule(); return; }
      context.font = "italic 56px 'DejaVu Serif', Georgia, serif";
      context.fillStyle = "#17211e";
      context.textBaseline = "middle";
      context.fillText(name, 24, canvas.height / 2, canvas.width - 48);
      drawn = true;
      signed();
    });
    typed.addEventListener("change", function (event) { event.stopPropagation(); });
    pad.querySelector(".signature-clear").addEventListener("click", function () {
      context.clearRect(0, 0, canvas.width, canvas.height);
      prepare();
      typed.value = "";
      drawn = false; target.value = ""; schedule();
    });
  });

  setUpSteps();
  applyConditions();
}());
