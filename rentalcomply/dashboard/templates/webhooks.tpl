% rebase('layout.tpl')
<div class="head"><h1>{{_('Webhooks')}}</h1><p class="muted">{{_('RentalComply sends signed events to these addresses.')}}</p></div>
% if errors:
<div class="notice error" role="alert">
  % for field, message in errors.items():
  <p>{{_(field)}}: {{_(message)}}</p>
  % end
</div>
% end
<section class="card">
% if not endpoints:
<p class="empty">{{_('No webhook endpoints.')}}</p>
% else:
<table class="list">
  <thead><tr><th scope="col">{{_('Address')}}</th><th scope="col">{{_('Events')}}</th><th scope="col">{{_('Status')}}</th><th scope="col">{{_('Last success')}}</th></tr></thead>
  <tbody>
  % for w in endpoints:
  <tr>
    <td data-label="{{_('Address')}}" class="wrap"><a href="/dashboard/settings/webhooks/{{w.id}}">{{w.url}}</a>{{!'<br><span class="small muted">' + __import__('html').escape(w.description) + '</span>' if w.description else ''}}</td>
    <td data-label="{{_('Events')}}">{{_('all events') if '*' in w.events else ', '.join(w.events)}}</td>
    <td data-label="{{_('Status')}}"><span class="badge s-{{'at_risk' if w.failing_since and w.status == 'active' else w.status}}">{{_('failing') if w.failing_since and w.status == 'active' else fmt.status(w.status)}}</span></td>
    <td data-label="{{_('Last success')}}">{{fmt.datetime(w.last_success_at) if w.last_success_at else _('never')}}</td>
  </tr>
  % end
  </tbody>
</table>
% end
</section>
<section class="card" aria-labelledby="new-hook">
  <h2 id="new-hook">{{_('Register an endpoint')}}</h2>
  <form method="post" action="/dashboard/settings/webhooks" class="stack">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <div class="field wide"><label for="url">{{_('Address (https://…)')}}</label>
    <input id="url" name="url" type="url" required value="{{values['url']}}"{{!' aria-invalid="true"' if 'url' in errors else ''}}></div>
    <div class="field wide"><label for="description">{{_('Description')}}</label>
    <input id="description" name="description" maxlength="200" value="{{values['description']}}"></div>
    <fieldset class="field events"><legend>{{_('Events')}}</legend>
      <label class="check"><input type="checkbox" name="events" value="*"{{!' checked' if '*' in values['events'] else ''}}> {{_('all events')}}</label>
      % for e in event_types:
      <label class="check"><input type="checkbox" name="events" value="{{e}}"{{!' checked' if e in values['events'] else ''}}> <span class="mono">{{e}}</span></label>
      % end
    </fieldset>
    <div class="actions"><button type="submit" class="primary">{{_('Register')}}</button></div>
  </form>
</section>
