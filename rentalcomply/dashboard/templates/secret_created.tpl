% rebase('layout.tpl')
<section class="card narrow">
  <h1>{{_('Webhook secret')}}</h1>
  <p class="wrap">{{endpoint.url}}</p>
  % include('_secret.tpl', label=_('Signing secret'), value=secret)
  <p class="muted small">{{_('Your receiver checks each delivery’s signature with it.')}}</p>
  <p><a class="button" href="/dashboard/settings/webhooks/{{endpoint.id}}">{{_('Done, to the endpoint')}}</a></p>
</section>
