% rebase('layout.tpl')
<section class="card narrow">
  <h1>{{status_code}} · {{title}}</h1>
  <p>{{message}}</p>
  <p><a class="button" href="/dashboard/{{'today' if page.user else 'sign-in'}}">{{_('Back to the dashboard')}}</a></p>
</section>
