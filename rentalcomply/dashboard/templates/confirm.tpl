% rebase('layout.tpl')
<section class="card narrow danger confirm" aria-labelledby="confirm-title">
  <h1 id="confirm-title">{{title}}</h1>
  <p class="lead">{{subject}}</p>
  <h2>{{_('What stops working')}}</h2>
  <ul class="consequences">
  % for line in consequences:
    <li>{{line}}</li>
  % end
  </ul>
  <form method="post" action="{{action}}" class="buttons">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <input type="hidden" name="confirm" value="yes">
    % for name, value in hidden.items():
    <input type="hidden" name="{{name}}" value="{{value}}">
    % end
    <button type="submit" class="danger primary-danger">{{button}}</button>
    <a class="button" href="{{back}}">{{_('No, keep it')}}</a>
  </form>
</section>
