% rebase('layout.tpl')
<section class="card narrow">
  <h1>{{_('Choose the account')}}</h1>
  <p class="muted">{{_('Your e-mail address and password open more than one account. Which one do you want to work in?')}}</p>
  <form method="post" action="/dashboard/sign-in/account" class="stack choices">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <input type="hidden" name="next" value="{{next}}">
    <input type="hidden" name="choice" value="{{choice}}">
    % if get('remember'):
    <input type="hidden" name="remember" value="yes">
    % end
    % for choice_of in accounts:
    <button type="submit" name="user" value="{{choice_of['user_id']}}">{{choice_of['account']}} <span class="muted">{{_('role:' + choice_of['role'])}}</span></button>
    % end
  </form>
  <p class="small">{{_('To open another account later, sign out and sign in again.')}}</p>
</section>
