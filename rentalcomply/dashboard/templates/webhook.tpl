% rebase('layout.tpl')
% from rentalcomply.dashboard import problems
<div class="head"><p class="crumbs"><a href="/dashboard/settings/webhooks">{{_('Webhooks')}}</a></p>
<h1 class="wrap">{{endpoint.url}}</h1>
<p><span class="badge s-{{'at_risk' if endpoint.failing_since and endpoint.status == 'active' else endpoint.status}}">{{_('failing') if endpoint.failing_since and endpoint.status == 'active' else fmt.status(endpoint.status)}}</span> <span class="muted mono">{{endpoint.id}}</span></p></div>
<section class="card">
  <dl class="facts">
    <dt>{{_('Events')}}</dt><dd>{{_('all events') if '*' in endpoint.events else ', '.join(endpoint.events)}}</dd>
    % if endpoint.description:
    <dt>{{_('Description')}}</dt><dd>{{endpoint.description}}</dd>
    % end
    <dt>{{_('Last success')}}</dt><dd>{{fmt.datetime(endpoint.last_success_at) if endpoint.last_success_at else _('never')}}</dd>
    % if endpoint.failing_since:
    <dt>{{_('Failing since')}}</dt><dd>{{fmt.datetime(endpoint.failing_since)}}</dd>
    % end
    % if endpoint.disabled_reason:
    <dt>{{_('Disabled because')}}</dt><dd>{{_(problems.webhook_disabled(endpoint.disabled_reason))}}</dd>
    % end
    % if view['previous_secret_expires_at']:
    <dt>{{_('Previous secret signs until')}}</dt><dd>{{fmt.iso_datetime(view['previous_secret_expires_at'])}}</dd>
    % end
  </dl>
  <div class="buttons">
    <form method="post" action="/dashboard/settings/webhooks/{{endpoint.id}}/test" class="inline">
      <input type="hidden" name="csrf" value="{{page.csrf}}"><button type="submit" class="primary">{{_('Send a test')}}</button></form>
    <form method="post" action="/dashboard/settings/webhooks/{{endpoint.id}}/rotate" class="inline">
      <input type="hidden" name="csrf" value="{{page.csrf}}"><button type="submit">{{_('Rotate the secret')}}</button></form>
    <form method="post" action="/dashboard/settings/webhooks/{{endpoint.id}}/status" class="inline">
      <input type="hidden" name="csrf" value="{{page.csrf}}">
      <input type="hidden" name="status" value="{{'disabled' if endpoint.status == 'active' else 'active'}}">
      <button type="submit">{{_('Disable') if endpoint.status == 'active' else _('Enable')}}</button></form>
    <form method="post" action="/dashboard/settings/webhooks/{{endpoint.id}}/delete" class="inline">
      <input type="hidden" name="csrf" value="{{page.csrf}}"><button type="submit" class="danger">{{_('Delete')}}</button></form>
  </div>
</section>
<section class="card" aria-labelledby="choose-events">
  <h2 id="choose-events">{{_('Events it receives')}}</h2>
  % if errors:
  <p class="notice error" role="alert">{{_(errors.get('events', ''))}}</p>
  % end
  <form method="post" action="/dashboard/settings/webhooks/{{endpoint.id}}/events" class="stack">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <fieldset class="field events"><legend class="visually-hidden">{{_('Events')}}</legend>
      <label class="check"><input type="checkbox" name="events" value="*"{{!' checked' if '*' in endpoint.events else ''}}> {{_('all events')}}</label>
      % for e in event_types:
      <label class="check"><input type="checkbox" name="events" value="{{e}}"{{!' checked' if e in endpoint.events else ''}}> <span class="mono">{{e}}</span></label>
      % end
    </fieldset>
    <div class="actions"><button type="submit">{{_('Save the events')}}</button></div>
  </form>
</section>
<section class="card" aria-labelledby="deliveries">
  <h2 id="deliveries">{{_('Deliveries')}}</h2>
  % if not deliveries:
  <p class="empty">{{_('No deliveries yet.')}}</p>
  % else:
  <table class="list">
    <thead><tr><th scope="col">{{_('Event')}}</th><th scope="col">{{_('Created')}}</th><th scope="col">{{_('Status')}}</th><th scope="col">{{_('Response')}}</th><th scope="col">{{_('Attempts')}}</th><th scope="col"><span class="visually-hidden">{{_('Actions')}}</span></th></tr></thead>
    <tbody>
    % for d in deliveries:
    <tr class="delivery" data-status="{{d.status}}">
      <td data-label="{{_('Event')}}" class="mono">{{d.event_type}}</td>
      <td data-label="{{_('Created')}}">{{fmt.datetime(d.created_at)}}</td>
      <td data-label="{{_('Status')}}"><span class="badge s-{{d.status}}">{{fmt.status(d.status)}}</span></td>
      <td data-label="{{_('Response')}}"><span class="code">{{d.last_status_code or '—'}}</span>
      % if d.last_error:
      <br><span class="small error-text">{{_(problems.webhook(d.last_error))}}</span>
      % end
      </td>
      <td data-label="{{_('Attempts')}}">{{d.attempts}}</td>
      <td class="actions-cell">
        % if d.status == 'failed':
        <form method="post" action="/dashboard/settings/webhooks/{{endpoint.id}}/deliveries/{{d.id}}/resend" class="inline">
          <input type="hidden" name="csrf" value="{{page.csrf}}"><button type="submit" class="small">{{_('Send again')}}</button></form>
        % end
      </td>
    </tr>
    % end
    </tbody>
  </table>
  % end
</section>
