% rebase('layout.tpl')
<div class="head"><h1>{{_('Devices signed in')}}</h1>
<p class="muted">{{_('Signed in as')}} {{page.user.email}}</p></div>
% include('_devices.tpl')
