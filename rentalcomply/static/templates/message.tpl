% rebase('layout', title=title, body_class='page-message')
<main class="shell shell-narrow" id="main">
  <section class="card card-message">
    <div class="badge badge-{{tone}}" aria-hidden="true">!</div>
    <h1>{{title}}</h1>
    <p class="lead">{{text}}</p>
  </section>
</main>
