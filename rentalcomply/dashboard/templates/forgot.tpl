% rebase('layout.tpl')
<section class="card narrow">
  <h1>{{_('Forgot your password?')}}</h1>
  % if sent:
  <p class="notice ok" role="status">{{_('If {email} belongs to a user of the dashboard, a link to choose a new password is on its way to it. It works once.', email=email)}}</p>
  <p><a class="button" href="/dashboard/sign-in">{{_('Sign in')}}</a></p>
  % else:
  <p class="muted">{{_('Give the e-mail address you sign in with: a one-time link to choose a new password is sent to it.')}}</p>
  % if message:
  <p class="notice error" role="alert">{{message}}</p>
  % end
  <form method="post" action="/dashboard/forgot-password" class="stack">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <label for="email">{{_('E-mail address')}}</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="{{email}}">
    <button type="submit" class="primary">{{_('Send me a link')}}</button>
  </form>
  % end
</section>
