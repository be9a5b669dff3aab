/* The dashboard's only script: the copy buttons, the phone's menu button, the bookings' filters
   open on a wide screen. Every page works without it: the value stays selectable in its read-only
   field (the copy buttons stay hidden), the menu opens as #menu (:target), the filters open with
   their own line. */
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
  function menu() {
    var button = document.querySelector(".menu-button");
    var header = document.querySelector("header.top");
    if (!button || !header) { return; }
    button.addEventListener("click", function (event) {
      event.preventDefault();
      var open = !header.classList.contains("menu-open");
      header.classList.toggle("menu-open", open);
      button.setAttribute("aria-expanded", open ? "true" : "false");
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var buttons = document.querySelectorAll("button[data-copy]");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].hidden = false;
      buttons[i].addEventListener("click", function (event) { copy(event.currentTarget); });
    }
    menu();
    if (window.matchMedia("(min-width: 700px)").matches) {
      var boxes = document.querySelectorAll("details.filter-box");
      for (var j = 0; j < boxes.length; j++) { boxes[j].open = true; }
    }
  });
})();
