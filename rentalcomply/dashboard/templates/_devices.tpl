<section class="card" aria-labelledby="devices">
  <h2 id="devices">{{_('Devices signed in')}}</h2>
  <p class="muted">{{_('The devices where you chose “Keep me signed in”: each stays signed in for 30 days unless you sign it out here.')}}</p>
  % if not devices:
  <p class="empty">{{_('No device keeps you signed in.')}}</p>
  % else:
  <table class="list devices">
    <thead><tr><th scope="col">{{_('Device')}}</th><th scope="col">{{_('Last used')}}</th><th scope="col">{{_('Signed in until')}}</th><th scope="col"><span class="visually-hidden">{{_('Actions')}}</span></th></tr></thead>
    <tbody>
    % for d in devices:
      <tr>
        <td data-label="{{_('Device')}}">{{d['name'] or _('A browser')}}{{!' <span class="badge s-active">' + _('This device') + '</span>' if d['this'] else ''}}</td>
        <td data-label="{{_('Last used')}}">{{fmt.datetime(d['last_seen'])}}</td>
        <td data-label="{{_('Signed in until')}}">{{fmt.date(d['until'].date())}}</td>
        <td class="actions-cell"><form method="post" action="/dashboard/settings/devices/sign-out" class="inline">
          <input type="hidden" name="csrf" value="{{page.csrf}}">
          <input type="hidden" name="device" value="{{d['key']}}">
          <input type="hidden" name="back" value="{{page.path}}">
          <button type="submit" class="small">{{_('Sign out this device')}}</button>
        </form></td>
      </tr>
    % end
    </tbody>
  </table>
  % end
  <form method="post" action="/dashboard/settings/devices/sign-out-everywhere" class="actions">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <button type="submit" class="danger">{{_('Sign out everywhere')}}</button>
    <span class="hint">{{_('Every browser signed in as you, this one included.')}}</span>
  </form>
</section>
