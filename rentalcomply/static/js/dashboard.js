/* The copy buttons: the only script of the dashboard. Without it the value stays selectable in
   its read-only field and the buttons stay hidden. */
(function () {
  "use strict";
  function copy(button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) { return; }
    var label = button.textContent;
    function done() {
      button.textContent = button.getAttribute("data-copied") || label;
      setTimeout(function () { button.textContent = label; }, 2000);
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, function () { field.select(); });
    } else {
      field.select();
      try { if (document.execCommand("copy")) { done(); } } catch (e) { /* selected: copy by hand */ }
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    var buttons = document.querySelectorAll("button[data-copy]");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].hidden = false;
      buttons[i].addEventListener("click", function (event) { copy(event.currentTarget); });
    }
  });
})();
