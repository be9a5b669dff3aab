/* The property form: what follows from the country, at once. Choosing a country fills its time
   zones, shows its own fields (Greece's AADE number, Italy's CIN, Spain's licence...), its
   regions and the police connectors it takes, starting on the authority its guests are filed
   with; choosing a region picks its zone and authority (the Canary Islands: Atlantic/Canary;
   Catalonia: the Mossos d'Esquadra). The data come with the page (data-property-form, written by
   dashboard/pages/property_form.py): the pages may fetch nothing.
   Without this script the form works in one step more: its "Show this country's fields" button
   sends it back and the page returns with them, nothing saved. */
(function () {
  "use strict";

  function options(select, choices, chosen, blank) {
    while (select.options.length) { select.remove(0); }
    if (blank !== null) { select.add(new Option(blank, "", false, !chosen)); }
    for (var i = 0; i < choices.length; i++) {
      var on = choices[i][0] === chosen;
      select.add(new Option(choices[i][1], choices[i][0], on, on));
    }
  }

  function values(choices) {
    var found = [];
    for (var i = 0; i < choices.length; i++) { found.push(choices[i][0]); }
    return found;
  }

  function setUp(form) {
    var data = JSON.parse(form.getAttribute("data-property-form"));
    var country = form.querySelector("#country");
    var zone = form.querySelector("#timezone");
    var region = form.querySelector("#region");
    var connector = form.querySelector("#police_connector");
    var regionBlank = region.querySelector("option[value='']").textContent;
    var notFiled = form.querySelector("#police_connector-hint");
    var step = form.querySelector("[data-country-step]");
    if (step) { step.hidden = true; }
    // The connector the form started the country on: replaced when the country or region
    // changes, but a connector the person chose stays.
    var started = connector.value;

    function show(element, on) {
      element.hidden = !on;
      var fields = element.querySelectorAll("input, select, textarea");
      for (var i = 0; i < fields.length; i++) { fields[i].disabled = !on; }
    }

    function connectorKey() {
      var key = country.value + "/" + (region.disabled ? "" : region.value);
      return data.connectors[key] ? key : country.value + "/";
    }

    function followRegion() {
      var regionZone = data.regionZones[region.value];
      var zones = values(data.zones[country.value] || []);
      if (regionZone && zones.indexOf(regionZone) >= 0) { zone.value = regionZone; }
      followConnectors();
    }

    function followConnectors() {
      var key = connectorKey();
      var offered = data.connectors[key] || data.noConnectors;
      var start = data.start[key] || "none";
      var keep = connector.value !== started && values(offered).indexOf(connector.value) >= 0;
      var chosen = keep ? connector.value : start;
      options(connector, offered, chosen, null);
      started = start;
      if (notFiled) { notFiled.hidden = !data.connectors[key]; }
    }

    function followCountry() {
      var code = country.value;
      var blank = form.querySelector("#country option[value='']");
      if (blank && code) { blank.remove(); }
      var after = form.querySelectorAll("#country-fields, [data-after-country]");
      for (var a = 0; a < after.length; a++) { after[a].hidden = !code; }
      var limited = form.querySelectorAll("[data-countries]");
      for (var i = 0; i < limited.length; i++) {
        var wanted = limited[i].getAttribute("data-countries").split(" ");
        show(limited[i], wanted.indexOf(code) >= 0 || limited[i].hasAttribute("data-kept"));
      }
      var zones = data.zones[code] || [];
      options(zone, zones, zones.length === 1 ? zones[0][0] : "",
              zones.length === 1 ? null : data.chooseZone);
      options(region, data.regions[code] || [], "", regionBlank);
      followRegion();
    }

    country.addEventListener("change", followCountry);
    region.addEventListener("change", followRegion);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form[data-property-form]");
    if (form) { setUp(form); }
  });
})();
