% # "Scan the document" for one guest (block), folded to one line until the guest opens it.
% # Without JavaScript the button posts the whole form with the photo to the scan route, which
% # keeps what was typed and comes back with the fields filled (and this box open on the outcome);
% # scan.js sends the photo alone as soon as it is chosen and fills the fields in place.
% if scan['enabled'] and block['scannable']:
% note = scan['notes'].get(block['index'])
% if block['index'] == 0:
<link rel="stylesheet" href="{{asset('css/scan.css')}}">
<script src="{{asset('js/scan.js')}}" defer></script>
% end
% # The first submit button of a form is what Enter in a field presses: this one sends the form
% # as ever, so that Enter never posts a scan.
<button class="scan-default" hidden tabindex="-1" aria-hidden="true"></button>
<details class="scan" data-scan-guest="{{block['index']}}" data-scan-url="/checkin/{{token}}/scan/{{block['index']}}?lang={{lang}}" data-reading="{{t('scan.reading')}}"{{!' open' if note else ''}}>
  <summary>{{t('scan.title')}}</summary>
  <p class="hint" id="g{{block['index']}}-scan-hint">{{t('scan.hint')}} {{scan['formats']}} {{scan['privacy']}}</p>
  <input type="file" id="g{{block['index']}}-scan" name="scan-{{block['index']}}" accept="image/*" capture="environment" aria-label="{{t('scan.title')}}" aria-describedby="g{{block['index']}}-scan-hint">
  <button class="button-secondary scan-send" formaction="/checkin/{{token}}/scan/{{block['index']}}?lang={{lang}}" formenctype="multipart/form-data" formmethod="post" formnovalidate>{{t('scan.button')}}</button>
  <div class="scan-note{{' scan-note-' + note['tone'] if note else ''}}" role="status" aria-live="polite"{{!'' if note else ' hidden'}}>
  % for line in (note['lines'] if note else []):
    <p>{{line}}</p>
  % end
  </div>
</details>
% end
