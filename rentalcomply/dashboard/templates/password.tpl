% rebase('layout.tpl')
<section class="card narrow">
  <h1>{{_('Choose your password')}}</h1>
  % if user.email:
  <p class="muted">{{_('For {email}, in {account}.', email=user.email, account=account)}}</p>
  % if elsewhere:
  <p class="hint">{{_('This address signs in to another account here already, which keeps its own password. Choose the same password and the sign-in asks which account to open; a different one opens {account} directly.', account=account)}}</p>
  % end
  % else:
  <p class="muted">{{_('Choose the e-mail address you will sign in with, and a password.')}}</p>
  % end
  % if errors:
  <div class="notice error" role="alert"><p>{{_('Please correct the fields marked below.')}}</p></div>
  % end
  <form method="post" action="/dashboard/password/{{token}}" class="stack">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    % if not user.email:
    <label for="email">{{_('E-mail address')}}</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="{{email}}"{{!' aria-invalid="true" aria-describedby="email-error"' if 'email' in errors else ''}}>
    % if 'email' in errors:
    <p class="field-error" id="email-error">{{_(errors['email'])}}</p>
    % end
    % else:
    <input type="hidden" name="email" value="{{user.email}}" autocomplete="username">
    % end
    <label for="password">{{_('New password')}}</label>
    <input id="password" name="password" type="password" autocomplete="new-password" required minlength="10" aria-describedby="password-hint{{' password-error' if 'password' in errors else ''}}"{{!' aria-invalid="true"' if 'password' in errors else ''}}>
    <p class="hint" id="password-hint">{{_('At least 10 characters.')}}</p>
    % if 'password' in errors:
    <p class="field-error" id="password-error">{{_(errors['password'])}}</p>
    % end
    <label for="confirmation">{{_('The same password again')}}</label>
    <input id="confirmation" name="confirmation" type="password" autocomplete="new-password" required{{!' aria-invalid="true" aria-describedby="confirmation-error"' if 'confirmation' in errors else ''}}>
    % if 'confirmation' in errors:
    <p class="field-error" id="confirmation-error">{{_(errors['confirmation'])}}</p>
    % end
    <label class="check" for="remember"><input id="remember" name="remember" type="checkbox" value="yes"> <span>{{_('Keep me signed in on this device for 30 days')}}<span class="hint">{{_('Only on a device of your own. You can sign it out from Account.')}}</span></span></label>
    <button type="submit" class="primary">{{_('Set password')}}</button>
  </form>
</section>
