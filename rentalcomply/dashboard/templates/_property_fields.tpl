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
<input type="hidden" name="csrf" value="{{page.csrf}}">
<div class="grid">
% field('name', 'Name', required=True, maxlength=200)
% field('address', 'Address', required=True, maxlength=500)
% field('aade_property_id', 'AADE property registry number', hint='The number of the property in the AADE short-term rental registry (ΑΜΑ).', maxlength=50)
% field('country', 'Country', required=True, hint='Two letters, like GR.', maxlength=2, pattern='[A-Za-z]{2}')
% field('timezone', 'Time zone', required=True, hint='Like Europe/Athens.')
% field('max_guests', 'Most guests', kind='number', min=1, max=100)
% choice('climate_fee_category', 'Climate fee category', categories)
% choice('police_connector', 'Police connector', connectors)
% choice('status', 'Status', statuses)
</div>
