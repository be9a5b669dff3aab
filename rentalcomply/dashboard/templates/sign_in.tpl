% rebase('layout.tpl')
<section class="card narrow">
  <h1>{{_('Sign in')}}</h1>
  <p class="muted">{{_('The dashboard of your RentalComply account.')}}</p>
  % if message:
  <p class="notice error" role="alert">{{message}}</p>
  % end
  <form method="post" action="/dashboard/sign-in" class="stack">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <input type="hidden" name="next" value="{{next}}">
    <label for="email">{{_('E-mail address')}}</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="{{email}}" autofocus>
    <label for="password">{{_('Password')}}</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <label class="check" for="remember"><input id="remember" name="remember" type="checkbox" value="yes"> <span>{{_('Keep me signed in on this device for 30 days')}}<span class="hint">{{_('Only on a device of your own. You can sign it out from Account.')}}</span></span></label>
    <button type="submit" class="primary">{{_('Sign in')}}</button>
  </form>
  <p class="small"><a href="/dashboard/forgot-password">{{_('Forgot your password?')}}</a></p>
</section>
