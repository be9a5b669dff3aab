% rebase('layout.tpl')
<div class="head"><h1>{{_('Account')}}</h1></div>
% include('_controller.tpl')
