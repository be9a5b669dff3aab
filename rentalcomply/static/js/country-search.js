/* Country lists that can be searched: each <select> of countries (nationality, country of birth,
   issuing country, country of residence) gets a type-to-filter box beside it, and the select
   itself is hidden but stays the form's field. Without this script the select works as it is.

   Matching ignores case and accents, names that start with what was typed first, then those with
   a word that does, then those that hold it: "spa" finds "Spain" and "España", "ital" "Italia",
   "cote" "Côte d'Ivoire". The box is an ARIA 1.2 combobox with a
   listbox popup: arrows move through the matches, Enter chooses, Escape closes and goes back to
   what was chosen; the label of the select labels the box. */
(function () {
  "use strict";

  function fold(words) {
    return words.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  /* How well a name answers what was typed: 0 its start, 1 a word's start ("herz" finds
     "Bosnia & Herzegovina"), 2 anywhere in it ("spa" finds "España"); -1 not at all. */
  function rank(name, query) {
    if (!query) { return 0; }
    var folded = fold(name);
    var at = folded.indexOf(query);
    if (at < 0) { return -1; }
    if (at === 0) { return 0; }
    return folded.split(/[\s\-'’(),.&]+/).some(function (word) {
      return word.indexOf(query) === 0;
    }) ? 1 : 2;
  }

  function enhance(select) {
    var field = select.closest(".field");
    var label = field && field.querySelector("label[for='" + select.id + "']");
    var box = document.createElement("div");
    box.className = "country-search";
    var input = document.createElement("input");
    input.type = "text";
    input.id = select.id + "-search";
    input.autocomplete = "off";
    input.spellcheck = false;
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    var list = document.createElement("ul");
    list.id = select.id + "-options";
    list.setAttribute("role", "listbox");
    list.hidden = true;
    input.setAttribute("aria-controls", list.id);
    if (label) {
      label.htmlFor = input.id;
      label.id = label.id || select.id + "-label";
      list.setAttribute("aria-labelledby", label.id);
    }
    ["aria-describedby", "aria-invalid"].forEach(function (name) {
      if (select.hasAttribute(name)) { input.setAttribute(name, select.getAttribute(name)); }
    });
    box.appendChild(input);
    box.appendChild(list);
    select.parentNode.insertBefore(box, select);
    select.hidden = true;
    select.tabIndex = -1;
    select.setAttribute("data-search", input.id);  // checkin.js marks the box, not the select

    // The options once, in the select's order (the property's country and the language's first).
    var options = [];
    var seen = {};
    Array.prototype.forEach.call(select.options, function (option) {
      if (!option.value || seen[option.value]) { return; }
      seen[option.value] = true;
      options.push({ value: option.value, name: option.textContent });
    });
    var shown = [];
    var active = -1;

    function chosenName() {
      var option = select.options[select.selectedIndex];
      return option && option.value ? option.textContent : "";
    }

    function close() {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      active = -1;
    }

    function highlight(index) {
      var items = list.children;
      if (active >= 0 && items[active]) { items[active].classList.remove("active"); }
      active = index;
      if (index < 0 || !items[index]) { input.removeAttribute("aria-activedescendant"); return; }
      items[index].classList.add("active");
      input.setAttribute("aria-activedescendant", items[index].id);
      items[index].scrollIntoView({ block: "nearest" });
    }

    function open(query) {
      var folded = fold(query.trim());
      var ranked = [[], [], []];
      options.forEach(function (option) {
        var found = rank(option.name, folded);
        if (found >= 0) { ranked[found].push(option); }
      });
      shown = ranked[0].concat(ranked[1], ranked[2]);
      list.textContent = "";
      shown.forEach(function (option, index) {
        var item = document.createElement("li");
        item.id = list.id + "-" + index;
        item.setAttribute("role", "option");
        item.setAttribute("aria-selected", option.value === select.value ? "true" : "false");
        item.textContent = option.name;
        item.addEventListener("mousedown", function (event) { event.preventDefault(); });
        item.addEventListener("click", function () { choose(option); });
        list.appendChild(item);
      });
      list.hidden = shown.length === 0;
      input.setAttribute("aria-expanded", shown.length ? "true" : "false");
      highlight(shown.length && folded ? 0 : -1);
    }

    function choose(option) {
      select.value = option.value;
      input.value = option.name;
      close();
      select.dispatchEvent(new Event("change", { bubbles: true }));
    }

    input.value = chosenName();
    // A value set by another script (a scanned document's nationality) shows in the box too.
    select.addEventListener("change", function () { input.value = chosenName(); });
    input.addEventListener("input", function (event) {
      event.stopPropagation();  // the select changes when a country is chosen, not per letter
      open(input.value);
    });
    input.addEventListener("focus", function () { input.select(); });
    input.addEventListener("click", function () { if (list.hidden) { open(""); } });
    input.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        if (list.hidden) { open(""); }
        var step = event.key === "ArrowDown" ? 1 : -1;
        highlight(Math.max(0, Math.min(shown.length - 1, active + step)));
      } else if (event.key === "Enter") {
        if (!list.hidden && active >= 0) { event.preventDefault(); choose(shown[active]); }
      } else if (event.key === "Escape") {
        if (!list.hidden) { event.preventDefault(); }
        close();
        input.value = chosenName();
      }
    });
    input.addEventListener("change", function (event) { event.stopPropagation(); });
    input.addEventListener("blur", function () {
      // A typed name that is exactly one country's is taken; anything else goes back.
      var folded = fold(input.value.trim());
      var exact = options.filter(function (option) { return fold(option.name) === folded; });
      if (exact.length === 1 && exact[0].value !== select.value) { choose(exact[0]); }
      else if (!folded && select.value) {
        select.value = "";
        select.dispatchEvent(new Event("change", { bubbles: true }));
      }
      close();
      input.value = chosenName();
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll(".field-country select"), enhance);
}());
