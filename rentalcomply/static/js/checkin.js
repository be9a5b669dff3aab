/* The guest check-in page: shows the fields that apply, saves progress as the guest goes,
   draws signatures, and submits as JSON showing each problem beside its field. The server
   validates everything; without this script the form still posts as an ordinary form. */
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
    var blocks = form.querySelectorAll("[data-guest]");
    Array.prototype.forEach.call(blocks, function (block) {
      var guest = block.getAttribute("data-guest");
      var birth = value(guest, "birth_date");
      var age = /^\d{4}-\d{2}-\d{2}$/.test(birth) ? ageOn(birth, arrival) : null;
      Array.prototype.forEach.call(block.querySelectorAll(".field"), function (field) {
        var show = true;
        var when = field.getAttribute("data-when");
        if (when) { show = value(guest, when) === field.getAttribute("data-when-value"); }
        var also = field.getAttribute("data-also");
        if (also && show) {
          show = field.getAttribute("data-also-values").split(" ").indexOf(value(guest, also)) >= 0;
        }
        var minAge = field.getAttribute("data-min-age");
        var maxAge = field.getAttribute("data-max-age");
        if (minAge !== null && age !== null && age < Number(minAge)) { show = false; }
        if (maxAge !== null && (age === null || age > Number(maxAge))) { show = false; }
        field.hidden = !show;
      });
      Array.prototype.forEach.call(block.querySelectorAll(".section-document"), function (section) {
        var visible = section.querySelectorAll(".field:not([hidden])").length > 0;
        section.hidden = !visible;
      });
    });
  }

  function collect() {
    var guests = [];
    Array.prototype.forEach.call(form.querySelectorAll("[name^='g']"), function (input) {
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

  function say(text) { state.textContent = text; }

  function save() {
    if (saving) { dirty = true; return; }
    saving = true; dirty = false;
    say(form.getAttribute("data-saving"));
    post("/progress", collect()).then(function (response) {
      say(response.ok ? form.getAttribute("data-saved") : form.getAttribute("data-offline"));
    }).catch(function () {
      say(form.getAttribute("data-offline"));
    }).then(function () {
      saving = false;
      if (dirty) { schedule(); }
    });
  }

  function schedule() {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(save, 900);
  }

  function clearErrors() {
    Array.prototype.forEach.call(form.querySelectorAll(".error"), function (p) {
      p.hidden = true; p.textContent = "";
    });
    Array.prototype.forEach.call(form.querySelectorAll("[aria-invalid]"), function (el) {
      el.removeAttribute("aria-invalid");
    });
    Array.prototype.forEach.call(form.querySelectorAll(".signature.invalid"), function (el) {
      el.classList.remove("invalid");
    });
    summary.hidden = true;
  }

  function showErrors(errors, summaryText) {
    var first = null;
    errors.forEach(function (problem) {
      var match = /^guests\[(\d+)\]\.(\w+)$/.exec(problem.field);
      var id = match ? "g" + match[1] + "-" + match[2] : problem.field;
      var message = document.getElementById(id + "-error");
      var input = document.getElementById(id);
      if (!message) { return; }
      var field = message.closest(".field");
      if (field) { field.hidden = false; }
      message.textContent = problem.message;
      message.hidden = false;
      if (input && input.type !== "hidden") {
        input.setAttribute("aria-invalid", "true");
        var described = (input.getAttribute("aria-describedby") || "").split(" ");
        if (described.indexOf(id + "-error") < 0) { described.push(id + "-error"); }
        input.setAttribute("aria-describedby", described.join(" ").trim());
        first = first || input;
      } else if (field) {
        var pad = field.querySelector(".signature");
        if (pad) { pad.classList.add("invalid"); first = first || pad.querySelector("canvas"); }
      }
    });
    summary.textContent = summaryText || form.getAttribute("data-summary");
    summary.hidden = false;
    if (first) { first.focus(); if (first.scrollIntoView) { first.scrollIntoView({ block: "center" }); } }
    else { summary.focus(); }
  }

  form.addEventListener("input", function () { applyConditions(); schedule(); });
  form.addEventListener("change", function () { applyConditions(); schedule(); });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    clearTimeout(saveTimer);
    var button = form.querySelector("button[type=submit]");
    button.disabled = true;
    clearErrors();
    post("/submit", collect()).then(function (response) {
      return response.json().then(function (body) { return { status: response.status, body: body }; });
    }).then(function (reply) {
      if (reply.status === 200 && reply.body.next) {
        window.location.assign(reply.body.next);
        return;
      }
      button.disabled = false;
      if (reply.body.errors) { showErrors(reply.body.errors, reply.body.summary); }
      else { say(form.getAttribute("data-offline")); }
    }).catch(function () {
      button.disabled = false;
      say(form.getAttribute("data-offline"));
    });
  });

  /* Signatures: drawn with a finger, a pen or the mouse; kept as a PNG data URL. */
  Array.prototype.forEach.call(form.querySelectorAll(".signature"), function (pad) {
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
      if (drawn) { target.value = canvas.toDataURL("image/png"); pad.classList.remove("invalid"); schedule(); }
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
      drawn = true; target.value = canvas.toDataURL("image/png");
      pad.classList.remove("invalid"); schedule();
    });
    typed.addEventListener("change", function (event) { event.stopPropagation(); });
    pad.querySelector(".signature-clear").addEventListener("click", function () {
      context.clearRect(0, 0, canvas.width, canvas.height);
      prepare();
      typed.value = "";
      drawn = false; target.value = ""; schedule();
    });
  });

  applyConditions();
}());
