% def only_for(name):
%   # A field of some countries only: shown for those, or while it holds a value or an error
%   # (to be cleared); else hidden and disabled, so that it is not sent. property-form.js
%   # shows it when its country is chosen.
%   wanted = country_fields.get(name)
%   if not wanted:
%     return ''
%   end
%   # (The climate fee's category always holds one, and a region of another country is dropped
%   # with it: only their errors keep them.)
%   kept = name in errors or (values.get(name) not in (None, '') and name not in ('climate_fee_category', 'region'))
%   shown = values.get('country') in wanted or kept
%   return ' data-countries="%s"%s%s' % (' '.join(wanted), ' data-kept' if kept else '', '' if shown else ' hidden')
% end
% def field(name, label, kind='text', required=False, hint=None, **attrs):
%   value = values.get(name)
%   value = '' if value is None else value
%   limited = only_for(name)
<div class="field"{{!limited}}>
  <label for="{{name}}">{{_(label)}}{{!' <span class="req" aria-hidden="true">*</span>' if required else ''}}</label>
  <input id="{{name}}" name="{{name}}" type="{{kind}}" value="{{value}}"{{!' required' if required else ''}}{{!' disabled' if limited.endswith(' hidden') else ''}}{{!' aria-invalid="true" aria-describedby="' + name + '-error"' if name in errors else ''}}{{!''.join(' %s="%s"' % (k, v) for k, v in attrs.items())}}>
  % if hint:
  <p class="hint">{{_(hint)}}</p>
  % end
  % if name in errors:
  <p class="field-error" id="{{name}}-error">{{_(errors[name])}}</p>
  % end
</div>
% end
% def choice(name, label, options, hint=None, hint_shown=True):
%   limited = only_for(name)
%   described = ' '.join(filter(None, [name + '-hint' if hint else '', name + '-error' if name in errors else '']))
<div class="field"{{!limited}}>
  <label for="{{name}}">{{_(label)}}</label>
  <select id="{{name}}" name="{{name}}"{{!' disabled' if limited.endswith(' hidden') else ''}}{{!' aria-invalid="true"' if name in errors else ''}}{{!' aria-describedby="%s"' % described if described else ''}}>
  % for option in options:
    <option value="{{option}}"{{!' selected' if option == values.get(name) else ''}}>{{fmt.status(option)}}</option>
  % end
  </select>
  % if hint:
  <p class="hint" id="{{name}}-hint"{{!'' if hint_shown else ' hidden'}}>{{hint}}</p>
  % end
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
% chosen = values.get('country') or ''
<input type="hidden" name="shown_country" value="{{chosen}}">
<div class="field country-field">
  <label for="country">{{_('Country')}} <span class="req" aria-hidden="true">*</span></label>
  <select id="country" name="country" required aria-describedby="country-hint{{' country-error' if 'country' in errors else ''}}"{{!' aria-invalid="true"' if 'country' in errors else ''}}>
  % if not chosen:
    <option value="" selected>{{_('Choose the country')}}</option>
  % end
    <optgroup label="{{_('Where RentalComply files and reports')}}">
  % for code, shown in served_countries:
    <option value="{{code}}"{{!' selected' if code == chosen else ''}}>{{shown}}</option>
  % end
    </optgroup>
    <optgroup label="{{_('Every other country')}}">
  % served = dict(served_countries)
  % for code, shown in countries:
  %   if code not in served:
    <option value="{{code}}"{{!' selected' if code == chosen else ''}}>{{shown}}</option>
  %   end
  % end
    </optgroup>
  </select>
  <p class="hint" id="country-hint">{{_('Its time zones, its own fields and the police authority its guests are filed with follow from it.')}}</p>
  % if 'country' in errors:
  <p class="field-error" id="country-error">{{_(errors['country'])}}</p>
  % end
  <button type="submit" name="step" value="country" formnovalidate class="country-step" data-country-step>{{_('Show this country’s fields')}}</button>
</div>
<div class="grid">
% field('name', 'Name', required=True, maxlength=200)
% field('address', 'Address', required=True, maxlength=500)
</div>
<div id="country-fields"{{!'' if chosen else ' hidden'}}>
<div class="grid">
<div class="field">
  <label for="timezone">{{_('Time zone')}} <span class="req" aria-hidden="true">*</span></label>
  <select id="timezone" name="timezone" required aria-describedby="timezone-hint{{' timezone-error' if 'timezone' in errors else ''}}"{{!' aria-invalid="true"' if 'timezone' in errors else ''}}>
  % if not values.get('timezone') or len(zones) != 1:
    <option value=""{{!'' if values.get('timezone') else ' selected'}}>{{_('Choose the time zone')}}</option>
  % end
  % for code, shown in zones:
    <option value="{{code}}"{{!' selected' if code == values.get('timezone') else ''}}>{{shown}}</option>
  % end
  </select>
  <p class="hint" id="timezone-hint">{{_('Deadlines and times are counted in it.')}}</p>
  % if 'timezone' in errors:
  <p class="field-error" id="timezone-error">{{_(errors['timezone'])}}</p>
  % end
</div>
% field('aade_property_id', 'AADE property registry number', hint='The number of the property in the AADE short-term rental registry (ΑΜΑ).', maxlength=11, inputmode='numeric', pattern='[0-9]{1,11}')
% field('cin', 'CIN (national identification code)', hint='The code the Ministry of Tourism gave the property (BDSR). The guest page, the exported calendar and the check-in e-mails show it. Clear it before moving the property to another country.', maxlength=cin_limit, autocomplete='off')
% limited = only_for('region')
<div class="field" id="region-field"{{!limited}}>
  <label for="region">{{_('Region')}}</label>
  <select id="region" name="region"{{!' disabled' if limited.endswith(' hidden') else ''}} aria-describedby="region-hint{{' region-error' if 'region' in errors else ''}}"{{!' aria-invalid="true"' if 'region' in errors else ''}}>
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
% field('rooms', 'Rooms', kind='number', min=0, max=999, hint='The monthly tourism statistics report the rooms and beds available.', inputmode='numeric')
% field('beds', 'Beds', kind='number', min=0, max=999, inputmode='numeric')
% field('licence_number', 'Tourism licence number', hint='The regional tourism licence (HUTB-012345, VUT/MA/12345…), as the region gave it. The guest page, the exported calendar and the dashboard show it.', maxlength=licence_limit, autocomplete='off')
% field('nrua', 'NRUA (optional, legacy)', hint='An NRUA already held: the Supreme Court annulled its register (STS 620/2026), so it is kept for reference only.', maxlength=nrua_limit, autocomplete='off')
% field('max_guests', 'Most guests', kind='number', min=1, max=100)
% choice('climate_fee_category', 'Climate fee category', categories)
% from rentalcomply.filings.registry import filing_countries
% choice('police_connector', 'Police connector', connectors, hint=not_filed_words, hint_shown=chosen in filing_countries())
% choice('status', 'Status', statuses)
</div>
</div>
