% def field(name, label, kind='text', required=False, hint=None, **attrs):
%   value = values.get(name)
%   value = '' if value is None else value
<div class="field">
  <label for="{{name}}">{{_(label)}}{{!' <span class="req" aria-hidden="true">*</span>' if required else ''}}</label>
  <input id="{{name}}" name="{{name}}" type="{{kind}}" value="{{value}}"{{!' required' if required else ''}}{{!' aria-invalid="true" aria-describedby="' + name + '-error"' if name in errors else ''}}{{!''.join(' %s="%s"' % (k, v) for k, v in attrs.items())}}>
  % if hint:
  <p class="hint">{{_(hint)}}</p>
  % end
  % if name in errors:
  <p class="field-error" id="{{name}}-error">{{_(errors[name])}}</p>
  % end
</div>
% end
% def choice(name, label, options):
<div class="field">
  <label for="{{name}}">{{_(label)}}</label>
  <select id="{{name}}" name="{{name}}"{{!' aria-invalid="true" aria-describedby="' + name + '-error"' if name in errors else ''}}>
  % for option in options:
    <option value="{{option}}"{{!' selected' if option == values.get(name) else ''}}>{{fmt.status(option)}}</option>
  % end
  </select>
  % if name in errors:
  <p class="field-error" id="{{name}}-error">{{_(errors[name])}}</p>
  % end
</div>
% end
% def named_choice(name, label, options, hint=None):
<div class="field">
  <label for="{{name}}">{{_(label)}} <span class="req" aria-hidden="true">*</span></label>
  <select id="{{name}}" name="{{name}}" required{{!' aria-invalid="true"' if name in errors else ''}}{{!' aria-describedby="%s"' % ' '.join(filter(None, [name + '-hint' if hint else '', name + '-error' if name in errors else ''])) if hint or name in errors else ''}}>
  % for code, shown in options:
    <option value="{{code}}"{{!' selected' if code == values.get(name) else ''}}>{{shown}}</option>
  % end
  </select>
  % if hint:
  <p class="hint" id="{{name}}-hint">{{_(hint)}}</p>
  % end
  % if name in errors:
  <p class="field-error" id="{{name}}-error">{{_(errors[name])}}</p>
  % end
</div>
% end
<input type="hidden" name="csrf" value="{{page.csrf}}">
<div class="grid">
% field('name', 'Name', required=True, maxlength=200)
% field('address', 'Address', required=True, maxlength=500)
% named_choice('country', 'Country', countries, hint='Save to see the fields and time zones of the country chosen.')
% named_choice('timezone', 'Time zone', zones, hint='Deadlines and times are counted in it.')
% if greek_fields:
% field('aade_property_id', 'AADE property registry number', hint='The number of the property in the AADE short-term rental registry (ΑΜΑ).', maxlength=11, inputmode='numeric', pattern='[0-9]{1,11}')
% end
% if italian_fields or 'cin' in errors or values.get('cin'):
% field('cin', 'CIN (national identification code)', hint='The code the Ministry of Tourism gave the property (BDSR). The guest page, the exported calendar and the check-in e-mails show it. Clear it before moving the property to another country.', maxlength=cin_limit, autocomplete='off')
% end
% if region_choices or 'region' in errors:
<div class="field" id="region-field">
  <label for="region">{{_('Region')}}</label>
  <select id="region" name="region" aria-describedby="region-hint{{' region-error' if 'region' in errors else ''}}"{{!' aria-invalid="true"' if 'region' in errors else ''}}>
    <option value="">{{_('Not chosen: read from the address where it is certain')}}</option>
  % for code, shown in region_choices:
    <option value="{{code}}"{{!' selected' if code == values.get('region') else ''}}>{{shown}}</option>
  % end
  </select>
  <p class="hint" id="region-hint">{{region_hint}}</p>
  % if 'region' in errors:
  <p class="field-error" id="region-error">{{_(errors['region'])}}</p>
  % end
</div>
% end
% if italian_fields or values.get('rooms') is not None or values.get('beds') is not None or 'rooms' in errors or 'beds' in errors:
% field('rooms', 'Rooms', kind='number', min=0, max=999, hint='The monthly tourism statistics report the rooms and beds available.', inputmode='numeric')
% field('beds', 'Beds', kind='number', min=0, max=999, inputmode='numeric')
% end
% if get('spanish_fields') or 'licence_number' in errors or values.get('licence_number'):
% field('licence_number', 'Tourism licence number', hint='The regional tourism licence (HUTB-012345, VUT/MA/12345…), as the region gave it. The guest page, the exported calendar and the dashboard show it.', maxlength=licence_limit, autocomplete='off')
% end
% if get('spanish_fields') or 'nrua' in errors or values.get('nrua'):
% field('nrua', 'NRUA (optional, legacy)', hint='An NRUA already held: the Supreme Court annulled its register (STS 620/2026), so it is kept for reference only.', maxlength=nrua_limit, autocomplete='off')
% end
% field('max_guests', 'Most guests', kind='number', min=1, max=100)
% if greek_fields:
% choice('climate_fee_category', 'Climate fee category', categories)
% end
% choice('police_connector', 'Police connector', connectors)
% choice('status', 'Status', statuses)
</div>
