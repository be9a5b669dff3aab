/* "Scan the document" (templates/_scan.tpl) in place: the photo goes to the appliance as soon as
   it is chosen, alone (not the rest of the form); what the document says fills the guest's fields,
   which the page's own script then keeps as it keeps anything typed. Without this script the
   partial's button posts the whole form and the page comes back filled. */
(function () {
  "use strict";

  function fill(guest, values) {
    Object.keys(values).forEach(function (name) {
      var field = document.getElementById("g" + guest + "-" + name);
      if (!field) { return; }
      field.value = values[name];
      field.dispatchEvent(new Event("input", { bubbles: true }));
      field.dispatchEvent(new Event("change", { bubbles: true }));
    });
  }

  function say(box, tone, lines) {
    var note = box.querySelector(".scan-note");
    note.textContent = "";
    lines.forEach(function (line) {
      var p = document.createElement("p");
      p.textContent = line;
      note.appendChild(p);
    });
    note.className = "scan-note" + (tone ? " scan-note-" + tone : "");
    note.hidden = lines.length === 0;
  }

  function send(box, input) {
    var guest = box.getAttribute("data-scan-guest");
    var file = input.files && input.files[0];
    if (!file) { return; }
    var body = new FormData();
    body.append("scan-" + guest, file);
    box.classList.add("reading");
    say(box, "", [box.getAttribute("data-reading")]);
    fetch(box.getAttribute("data-scan-url"), {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "Accept": "application/json" }
    }).then(function (response) {
      return response.json();
    }).then(function (answer) {
      if (answer.values) { fill(guest, answer.values); }
      say(box, answer.tone, answer.lines || []);
    }).catch(function () {
      var form = document.getElementById("checkin-form");
      say(box, "warning", [(form && form.getAttribute("data-offline")) || ""]);
    }).then(function () {
      box.classList.remove("reading");
      input.value = "";  // the photo is not sent again with the form
    });
  }

  document.querySelectorAll(".scan[data-scan-guest]").forEach(function (box) {
    var input = box.querySelector("input[type=file]");
    // The page's script sends the form itself: these buttons are for pages without scripts.
    var form = box.closest("form");
    form.querySelectorAll("button.scan-default, button.scan-send").forEach(function (button) {
      button.remove();
    });
    input.addEventListener("change", function () { send(box, input); });
  });
})();
