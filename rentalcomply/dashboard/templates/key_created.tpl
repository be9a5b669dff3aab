% rebase('layout.tpl')
<section class="card narrow">
  <h1>{{_('Your new API key')}}</h1>
  <p>{{_('Key')}} <strong>{{record.name}}</strong> · {{', '.join(_(s) for s in record.scopes.split())}}{{(' · ' + _('expires') + ' ' + fmt.datetime(record.expires_at)) if record.expires_at else ''}}</p>
  % include('_secret.tpl', label=_('API key'), value=key)
  % if replaces:
  <p class="muted">{{_('It replaces key {id}.', id=replaces)}}</p>
  % end
  <p class="muted small">{{_('Send it as: Authorization: Bearer <key>')}}</p>
  <p><a class="button" href="/dashboard/settings/keys">{{_('Done, back to the keys')}}</a></p>
</section>
