% rebase('layout.tpl')
% def field(name, label, kind='text', required=False, hint=None, **attrs):
%   value = values.get(name)
%   value = '' if value is None else value
%   described = ' '.join(x for x in ((name + '-hint') if hint else '', (name + '-error') if name in errors else '') if x)
<div class="field">
  <label for="{{name}}">{{_(label)}}{{!' <span class="req" aria-hidden="true">*</span>' if required else ''}}</label>
  <input id="{{name}}" name="{{name}}" type="{{kind}}" value="{{value}}"{{!' required' if required else ''}}{{!' aria-invalid="true"' if name in errors else ''}}{{!' aria-describedby="' + described + '"' if described else ''}}{{!''.join(' %s="%s"' % (k, v) for k, v in attrs.items())}}>
  % if hint:
  <p class="hint" id="{{name}}-hint">{{_(hint)}}</p>
  % end
  % if name in errors:
  <p class="field-error" id="{{name}}-error">{{_(errors[name])}}</p>
  % end
</div>
% end
% def choice(name, label, options, blank=None):
<div class="field">
  <label for="{{name}}">{{_(label)}}</label>
  <select id="{{name}}" name="{{name}}"{{!' aria-invalid="true" aria-describedby="' + name + '-error"' if name in errors else ''}}>
  % if blank:
    <option value="">{{_(blank)}}</option>
  % end
  % for value, text in options:
    <option value="{{value}}"{{!' selected' if value == (values.get(name) or '') else ''}}>{{text}}</option>
  % end
  </select>
  % if name in errors:
  <p class="field-error" id="{{name}}-error">{{_(errors[name])}}</p>
  % end
</div>
% end
<div class="head">
  <p class="crumbs"><a href="/dashboard/bookings">{{_('Bookings')}}</a>{{!' › <a href="/dashboard/bookings/' + booking.id + '">' + booking.guest_name.replace('&', '&amp;').replace('<', '&lt;') + '</a>' if booking else ''}}</p>
  <h1>{{title}}</h1>
  % if not booking:
  <p class="muted">{{_('A stay booked directly with you: on the phone, by e-mail or at the door. The same rules as the API: no overlap with another stay or a channel block, at most the property’s guests.')}}</p>
  % end
</div>
% if errors or message:
<div class="notice error" role="alert">
  % if message:
  <p>{{message}}</p>
  % end
  % if errors:
  <p>{{_('Please correct the fields marked below.')}}</p>
  % end
</div>
% end
<section class="card">
<form method="post" action="{{action}}" class="stack" novalidate>
  <input type="hidden" name="csrf" value="{{page.csrf}}">
  <div class="grid">
  % if not booking:
  % choice('property_id', 'Property', [(pid, name) for pid, name in props])
  % end
  % field('guest_name', 'Guest name', required=True, maxlength=200, autocomplete='off')
  % if locked_dates:
  <p class="hint wide">{{locked_dates}}</p>
  % else:
  % field('arrival_date', 'Arrival', kind='date', required=True)
  % field('departure_date', 'Departure', kind='date', required=True)
  % end
  % field('guest_count', 'Guests', kind='number', required=True, min=1, max=100)
  % field('guest_email', 'E-mail address', kind='email', hint='The check-in link goes there.', maxlength=254, autocomplete='off')
  % field('guest_phone', 'Phone', kind='tel', maxlength=40, autocomplete='off')
  % choice('guest_language', 'Language of the guest’s e-mails', languages)
  % field('total_price', 'Total price (EUR)', inputmode='decimal', hint='Empty: not known yet.')
  % choice('payment_method', 'Payment method', payment_methods, blank='not known')
  % if not booking:
  % choice('source', 'Booked by', sources)
  % end
  </div>
  <div class="field">
    <label for="notes">{{_('Notes for the team')}}</label>
    <textarea id="notes" name="notes" rows="3" maxlength="2000" aria-describedby="notes-hint{{' notes-error' if 'notes' in errors else ''}}"{{!' aria-invalid="true"' if 'notes' in errors else ''}}>{{values.get('notes') or ''}}</textarea>
    <p class="hint" id="notes-hint">{{_('Seen only in the dashboard: not sent to the guest, the API or webhooks.')}}</p>
    % if 'notes' in errors:
    <p class="field-error" id="notes-error">{{_(errors['notes'])}}</p>
    % end
  </div>
  % if not booking:
  <label class="check"><input type="checkbox" name="invite" value="yes"{{!' checked' if values.get('invite') else ''}}> {{_('E-mail the check-in link to the guest now')}}</label>
  % end
  <div class="actions"><button type="submit" class="primary">{{_('Save changes') if booking else _('Create booking')}}</button>
  <a class="button" href="{{'/dashboard/bookings/' + booking.id if booking else '/dashboard/bookings'}}">{{_('Back')}}</a></div>
</form>
</section>
