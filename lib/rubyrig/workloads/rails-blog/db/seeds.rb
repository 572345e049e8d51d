# The seeded rows, the same on every build (a fixed random seed): 50 users (user1@example.com ...
# user50@example.com, password "password"), 2,000 posts of about 180 words, 10,000 comments.
module BlogSeeds
  USERS = 50
  POSTS = 2_000
  COMMENTS = 10_000
  STARTED_AT = Time.utc(2026, 1, 1)
  WORDS = %w[
    ruby rails puma thread fiber process memory garbage collector heap object string array hash symbol
    method block proc lambda class module constant instance variable request response header cookie
    session database table index query row column join transaction lock commit rollback cache page
    server client socket latency throughput queue worker job batch deploy release version upgrade test
    benchmark profile trace flame graph allocation compile interpreter bytecode machine code inline
    warm cold steady state noise signal median percentile interval error budget capacity rate load
    traffic user post comment author title body story draft publish edit review reply thread topic
    the a of to and in for on with as by at from that this it is was are be has have not but or
  ].freeze

  module_function

  def rows(random)
    users = (1..USERS).map { |id| user(id, random) }
    posts = (1..POSTS).map { |id| post(id, random) }
    comments = (1..COMMENTS).map { |id| comment(id, random) }
    [users, posts, comments]
  end

  def user(id, random)
    {id: id, name: "#{sentence(random, 2).chomp(".")} #{id}", email: "user#{id}@example.com",
     password_sha256: User.password_digest_for("password"), bio: sentence(random, 20),
     created_at: STARTED_AT, updated_at: STARTED_AT}
  end

  def post(id, random)
    at = STARTED_AT + id * 3600
    {id: id, user_id: random.rand(1..USERS), title: sentence(random, 6).chomp("."),
     body: Array.new(3) { Array.new(5) { sentence(random, 12) }.join(" ") }.join("\n\n"),
     created_at: at, updated_at: at}
  end

  def comment(id, random)
    at = STARTED_AT + POSTS * 3600 + id * 60
    {id: id, post_id: random.rand(1..POSTS), user_id: random.rand(1..USERS),
     body: Array.new(2) { sentence(random, 14) }.join(" "), created_at: at, updated_at: at}
  end

  def sentence(random, words)
    Array.new(words) { WORDS[random.rand(WORDS.size)] }.join(" ").capitalize + "."
  end
end

users, posts, comments = BlogSeeds.rows(Random.new(35))
User.insert_all(users)
posts.each_slice(500) { |slice| Post.insert_all(slice) }
comments.each_slice(1000) { |slice| Comment.insert_all(slice) }
Post.update_all("comments_count = (SELECT COUNT(*) FROM comments WHERE comments.post_id = posts.id)")
