% # The rule set editor's fields (pages/taxes.py: body_from_form reads them back).
% def err(name):
%   if name in errors:
  <p class="field-error" id="{{name}}-error">{{_(errors[name])}}</p>
%   end
% end
% def text_field(name, label, hint=None, kind='text', required=False, **attrs):
%   value = values.get(name)
<div class="field{{' wide' if attrs.pop('wide', False) else ''}}">
  <label for="{{name}}">{{_(label)}}{{!' <span class="req" aria-hidden="true">*</span>' if required else ''}}</label>
  <input id="{{name}}" name="{{name}}" type="{{kind}}" value="{{'' if value is None else value}}"{{!' required' if required else ''}}{{!' aria-invalid="true"' if name in errors else ''}}{{!' aria-describedby="%s"' % ' '.join(filter(None, [name + '-hint' if hint else '', name + '-error' if name in errors else ''])) if hint or name in errors else ''}}{{!''.join(' %s="%s"' % (k, v) for k, v in attrs.items())}}>
  % if hint:
  <p class="hint" id="{{name}}-hint">{{_(hint)}}</p>
  % end
  % err(name)
</div>
% end
% def select_field(name, label, options, chosen, hint=None):
<div class="field">
  <label for="{{name}}">{{_(label)}}</label>
  <select id="{{name}}" name="{{name}}"{{!' aria-invalid="true"' if name in errors else ''}}{{!' aria-describedby="%s"' % ' '.join(filter(None, [name + '-hint' if hint else '', name + '-error' if name in errors else ''])) if hint or name in errors else ''}}>
  % for code, shown in options:
    <option value="{{code}}"{{!' selected' if str(code) == str(chosen if chosen is not None else '') else ''}}>{{shown}}</option>
  % end
  </select>
  % if hint:
  <p class="hint" id="{{name}}-hint">{{_(hint)}}</p>
  % end
  % err(name)
</div>
% end
<input type="hidden" name="csrf" value="{{page.csrf}}">
<div class="grid">
  % text_field('name', 'Name', required=True, maxlength=200, wide=True)
  % text_field('authority', 'Authority', hint='The comune, region or city the tax is paid to.', required=True, maxlength=200)
  % text_field('country', 'Country', hint='Two letters, such as IT, ES or PT.', required=True, maxlength=2, autocomplete='off')
  % select_field('basis', 'Charged', [(b, _('tax_basis:' + b)) for b in choices['bases']], values['basis'])
  % text_field('source', 'Source', hint='Where the rules are published (a link to the resolution).', required=True, maxlength=2000, wide=True)
</div>
<h3>{{_('Rates')}}</h3>
<p class="hint">{{_('Each rate applies from its date; a stay across a change is charged night by night. Months: only those months (a season), such as 6 7 8; empty for all year. Leave a row empty to add nothing.')}}</p>
% err('rates')
<table class="list tax-rates">
  <thead><tr><th scope="col">{{_('From')}}</th><th scope="col">{{_('To')}}</th><th scope="col">{{_('Amount (€)')}}</th><th scope="col">{{_('Months')}}</th><th scope="col">{{_('Category')}}</th><th scope="col">{{_('Source')}}</th></tr></thead>
  <tbody>
  % for index, rate in enumerate(values['rate_rows']):
  %   bad = any(key.startswith('rates[%d]' % index) for key in errors)
  <tr{{!' class="has-error"' if bad else ''}}>
    <td data-label="{{_('From')}}"><input type="date" name="rate_from" value="{{rate.get('from') or ''}}" aria-label="{{_('From')}} {{index + 1}}"></td>
    <td data-label="{{_('To')}}"><input type="date" name="rate_to" value="{{rate.get('to') or ''}}" aria-label="{{_('To')}} {{index + 1}}"></td>
    <td data-label="{{_('Amount (€)')}}"><input name="rate_amount" inputmode="decimal" value="{{'' if rate.get('amount') is None else rate.get('amount')}}" aria-label="{{_('Amount (€)')}} {{index + 1}}"></td>
    <td data-label="{{_('Months')}}"><input name="rate_months" value="{{' '.join(str(m) for m in rate.get('months') or [])}}" aria-label="{{_('Months')}} {{index + 1}}"></td>
    <td data-label="{{_('Category')}}"><input name="rate_category" value="{{rate.get('category') or ''}}" aria-label="{{_('Category')}} {{index + 1}}"></td>
    <td data-label="{{_('Source')}}"><input name="rate_source" value="{{rate.get('source') or ''}}" aria-label="{{_('Source')}} {{index + 1}}"></td>
  </tr>
    % for key, message in errors.items():
    %   if key.startswith('rates[%d]' % index):
  <tr><td colspan="6"><p class="field-error">{{_('Rate {n}', n=index + 1)}}: {{_(message)}}</p></td></tr>
    %   end
    % end
  % end
  </tbody>
</table>
<div class="grid">
  % text_field('max_nights', 'Most nights charged', hint='Empty: every night is charged.', kind='number', min=1, max=366)
  % select_field('max_nights_per', 'Counted', [(p, _('tax_per:' + p)) for p in choices['per']], values['max_nights_per'])
</div>
<h3>{{_('Ages that pay less')}}</h3>
<p class="hint">{{_('A guest younger than the age on the arrival date pays that share of the rate: 0 exempts (“from 13” is below 13, 0 %).')}}</p>
% err('age_rates')
<div class="grid">
% for index, band in enumerate(values['age_rows']):
  <div class="field"><label for="age_below_{{index}}">{{_('Younger than')}}</label><input id="age_below_{{index}}" name="age_below" type="number" min="1" max="120" value="{{band.get('below', '')}}"></div>
  <div class="field"><label for="age_percent_{{index}}">{{_('Pays (% of the rate)')}}</label><input id="age_percent_{{index}}" name="age_percent" type="number" min="0" max="100" value="{{band.get('percent', '')}}"></div>
% end
</div>
<div class="field">
  <label for="exemption_reasons">{{_('Reasons a guest may declare')}}</label>
  <textarea id="exemption_reasons" name="exemption_reasons" rows="3" aria-describedby="exemption_reasons-hint">{{values['reasons_text']}}</textarea>
  <p class="hint" id="exemption_reasons-hint">{{_('One a line, a code and the words the guest reads: “driver: Coach or bus driver”.')}}</p>
  % err('exemption_reasons')
</div>
<div class="grid">
  % select_field('rounding_cents', 'Rounded to', [(c, _('1 cent') if c == 1 else _('{n} cents', n=c)) for c in choices['rounding']], values['rounding_cents'])
  % select_field('rounding_mode', 'Rounding', [(m, _('tax_rounding:' + m)) for m in choices['modes']], values['rounding_mode'])
  % select_field('stacks_on', 'A surcharge on', [('', _('nothing: a tax of its own'))] + choices['stacks'], values['stacks_on'] or '')
</div>
<fieldset class="field events"><legend>{{_('Channels that collect it themselves')}}</legend>
  % for channel in choices['channels']:
  <label class="check"><input type="checkbox" name="platform_channels" value="{{channel}}"{{!' checked' if channel in (values['platform_channels'] or []) else ''}}> {{fmt.channel(channel)}}</label>
  % end
</fieldset>
<label class="check"><input type="checkbox" name="free_stays_exempt" value="yes"{{!' checked' if values['free_stays_exempt'] else ''}}> {{_('A free stay pays nothing')}}</label>
<h3>{{_('Return to the authority')}}</h3>
<p class="hint">{{_('How often the authority wants its return: each period becomes a filing with its deadline and the figures to type in.')}}</p>
% returns = values['returns'] or {}
<div class="grid">
  % select_field('returns_every', 'Every', [('', _('no return filed here'))] + [(p, _('tax_period:' + p)) for p in choices['periods']], returns.get('every', ''))
  % values['returns_due_day'] = returns.get('due_day')
  % values['returns_due_months_after'] = returns.get('due_months_after', 1)
  % text_field('returns_due_day', 'Due on day', kind='number', min=1, max=28)
  % text_field('returns_due_months_after', 'Months after the period', hint='1: the month after the period ends.', kind='number', min=0, max=12)
</div>
% err('returns')
