<!doctype html>
<html lang="{{page.lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{{title + ' · ' if title else ''}}RentalComply</title>
<link rel="stylesheet" href="/static/css/dashboard.css">
<script src="/static/js/dashboard.js" defer></script>
</head>
<body>
<a class="skip" href="#main">{{_('Skip to content')}}</a>
<header class="top{{' signed-in' if page.user else ''}}">
  <div class="bar">
    <a class="brand" href="/dashboard/{{'today' if page.user else 'sign-in'}}"><span class="mark" aria-hidden="true">RC</span> <span class="brand-name">RentalComply</span></a>
    % if page.user:
    <form method="get" action="/dashboard/search" class="find" role="search">
      <label for="find-q" class="visually-hidden">{{_('Find a booking')}}</label>
      <input id="find-q" name="q" type="search" value="{{get('q', '') if page.path == '/dashboard/search' else ''}}" placeholder="{{_('Guest, phone, code…')}}" maxlength="200">
      <button type="submit" class="find-go">{{_('Search')}}</button>
    </form>
    %# On a phone the menu hides behind this button: a link to the menu (#menu, shown by
    %# :target without a script); dashboard.js turns it into a toggle.
    <a class="menu-button button" href="#menu" aria-controls="menu" aria-expanded="false">{{_('Menu')}}</a>
    % end
    <div class="tools">
      <span class="langs">
      %# Five languages fit a phone's header by their codes; each is named in its own language
      %# for a screen reader and on hover.
      % for code, name in page.languages:
        % if code == page.lang:
        <span class="lang current" lang="{{code}}" aria-current="true" title="{{name}}"><span aria-hidden="true">{{code.upper()}}</span><span class="visually-hidden">{{name}}</span></span>
        % else:
        <a class="lang" href="{{page.lang_url(code)}}" lang="{{code}}" hreflang="{{code}}" title="{{name}}"><span aria-hidden="true">{{code.upper()}}</span><span class="visually-hidden">{{name}}</span></a>
        % end
      % end
      </span>
      % if page.user:
      <a class="who" href="/dashboard/settings/devices" title="{{_('Signed in as')}}">{{page.user.email}}</a>
      <form method="post" action="/dashboard/sign-out" class="inline">
        <input type="hidden" name="csrf" value="{{page.csrf}}">
        <button type="submit" class="quiet">{{_('Sign out')}}</button>
      </form>
      % end
    </div>
  </div>
  % if page.user:
  <nav id="menu" aria-label="{{_('Main')}}">
    <ul>
    % owner_only = ("/settings/keys", "/settings/webhooks", "/settings/account")
    % for path, label in (("/today", "Today"), ("/calendar", "Calendar"), ("/bookings", "Bookings"), ("/properties", "Properties"), ("/reports", "Reports"), ("/filings", "Filings"), ("/settings/keys", "API keys"), ("/settings/webhooks", "Webhooks"), ("/activity", "Activity"), ("/settings/account", "Account")):
      % if path in owner_only and page.user.role != 'owner':
      %   continue
      % end
      <li><a href="/dashboard{{path}}"{{!' aria-current="page"' if page.path.startswith('/dashboard' + path) else ''}}>{{_(label)}}</a></li>
    % end
    </ul>
  </nav>
  % end
</header>
<main id="main" tabindex="-1">
% if get('done') and _('done:' + done) != 'done:' + done:
  <p class="notice ok" role="status">{{_('done:' + done)}}</p>
% end
{{!base}}
</main>
<footer class="foot"><span>RentalComply</span></footer>
</body>
</html>
