-- A real evening for wrk (benchmarks/bench_evening.py runs it; see docs/benchmarks.md).
--
-- Each wrk thread has one kept-alive connection (as a proxy such as Caddy keeps a few open to
-- gunicorn) and plays its share of the tables: table t belongs to thread t % threads. Per table:
--   * PHONES phones follow the game: each asks /g/<id>/watch/board every POLL seconds with the
--     ETag it has (If-None-Match), so an unchanged game answers 304;
--   * the scorekeeper saves a round every SAVE seconds: it opens the round form (GET, with the
--     creator's session cookie) and sends it back filled in (POST, expecting a 302).
-- Requests are sent on a schedule (open loop): when the server falls behind, the next request is
-- sent at once and its latency counts from when it was due, so a slow server shows in the
-- percentiles (no "coordinated omission"). Answers in the first WARMUP seconds are not counted.
-- Each thread writes what it measured (the latencies in ms of the requests due in the
-- SECONDS after the warm-up and answered before their end, the answers' statuses) to
-- EVENING_OUT/thread-N.json with the first answer it gets after them (wrk runs a few seconds longer for that: its
-- own thread:get() of a table crashes the wrk Debian ships); bench_evening.py reads them.

local ffi = require("ffi")
ffi.cdef([[
  typedef struct { long tv_sec; long tv_nsec; } evening_timespec;
  int clock_gettime(int clock, evening_timespec *out);
]])
local clock = ffi.new("evening_timespec")
local function now()
  ffi.C.clock_gettime(1, clock) -- CLOCK_MONOTONIC
  return tonumber(clock.tv_sec) + tonumber(clock.tv_nsec) * 1e-9
end

local function setting(name, default)
  local value = os.getenv("EVENING_" .. name)
  return value and tonumber(value) or default
end

local threads = {}
local counter = 0

function setup(thread)
  thread:set("thread_index", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

local function read_games(path, tables, index, count)
  local mine = {}
  local n = 0
  for line in io.lines(path) do
    if n >= tables then break end
    if n % count == index then
      local id, cookie = line:match("^(%S+)\t(%S+)$")
      table.insert(mine, { id = id, cookie = cookie, finished = false })
    end
    n = n + 1
  end
  return mine
end

function init(args)
  local count = setting("THREADS", 1)
  poll, save, warmup = setting("POLL", 5), setting("SAVE", 300), setting("WARMUP", 10)
  seconds = setting("SECONDS", 30)
  local per_table = setting("PHONES", 4)
  games = read_games(os.getenv("EVENING_GAMES"), setting("TABLES", 1), thread_index, count)
  math.randomseed(1000 + thread_index)
  phones = {}
  for t, game in ipairs(games) do
    for p = 1, per_table do
      local n = (t - 1) * count + thread_index
      table.insert(phones, { game = game, etag = nil,
        address = string.format("10.%d.%d.%d", n % 200, math.floor(n / 200) % 250, p) })
    end
  end
  -- Each phone polls at its own moment of the POLL seconds, whatever its table (a shuffle):
  -- in table order, the tables every thread saves at about the same time (the same place in
  -- their lists) had their phones polling at the same moment in every thread, so the full
  -- boards after saves came to the server in bursts every POLL seconds, which no real evening
  -- does (its phones' moments do not depend on when their table saves).
  for i = #phones, 2, -1 do
    local j = math.random(i)
    phones[i], phones[j] = phones[j], phones[i]
  end
  started = now()
  local n_phones, n_games = math.max(#phones, 1), math.max(#games, 1)
  poll_gap, save_gap = poll / n_phones, save / n_games
  next_poll = started + math.random() * poll_gap
  next_save = started + math.random() * save_gap
  next_phone, next_table = 1, 1
  pending = nil -- a filled-in round form waiting to be sent
  due = started
  times = { poll = {}, form = {}, save = {} }
  statuses = {}
  late = 0
end

function delay()
  if pending then
    due = now()
    return 0
  end
  due = math.min(next_poll, next_save)
  local wait = (due - now()) * 1000
  if wait < 0 then
    if due - started >= warmup then late = late + 1 end
    return 0
  end
  return math.ceil(wait)
end

local function encode(value)
  return (tostring(value):gsub("[^%w%-%._~]", function(c)
    return string.format("%%%02X", string.byte(c))
  end))
end

-- The phones join over the first (WARMUP - POLL) seconds, one after the other (at an
-- evening's start they do not all open the share view in the same second), so every phone
-- has polled once, with its first full answer, a whole POLL before the measured time.
local function joined()
  local ramp = warmup - poll
  if ramp <= 0 then return #phones end
  local share = (now() - started) / ramp
  return math.max(1, math.min(#phones, math.floor(#phones * share)))
end

local function poll_request()
  local active = joined()
  if next_phone > active then next_phone = 1 end
  local phone = phones[next_phone]
  next_phone = next_phone % #phones + 1
  -- While the phones join, a thread's few phones ask at least every 0.5 s, so its connection
  -- is never idle long enough for gunicorn to close it (its keep-alive: 2 s).
  local gap = poll / active
  if active < #phones then gap = math.min(gap, 0.5) end
  next_poll = next_poll + gap
  current = { kind = "poll", phone = phone, due = math.min(due, now()) }
  local headers = { ["X-Forwarded-For"] = phone.address }
  if phone.etag then headers["If-None-Match"] = phone.etag end
  return wrk.format("GET", "/g/" .. phone.game.id .. "/watch/board", headers)
end

local function form_request()
  local game = games[next_table]
  next_table = next_table % #games + 1
  next_save = next_save + save_gap
  current = { kind = "form", game = game, due = math.min(due, now()) }
  local headers = { Cookie = game.cookie, ["X-Forwarded-For"] = "10.250.0." .. thread_index }
  return wrk.format("GET", "/g/" .. game.id .. "/round", headers)
end

function request()
  if pending then
    local sent = pending
    pending = nil
    current = { kind = "save", game = sent.game, due = math.min(due, now()) }
    local headers = {
      Cookie = sent.game.cookie,
      ["Content-Type"] = "application/x-www-form-urlencoded",
      ["X-Forwarded-For"] = "10.250.0." .. thread_index,
    }
    return wrk.format("POST", "/g/" .. sent.game.id .. "/round", headers, sent.body)
  end
  if #games > 0 and next_save <= next_poll then
    local game = games[next_table]
    if not game.finished then return form_request() end
    next_table = next_table % #games + 1
    next_save = next_save + save_gap
  end
  return poll_request()
end

local function filled_in(body)
  local fields = {}
  for tag in body:gmatch("<input[^>]*>") do
    local name = tag:match('name="([^"]+)"')
    if name and tag:match('type="hidden"') then
      table.insert(fields, name .. "=" .. encode(tag:match('value="([^"]*)"') or ""))
    end
  end
  local out = math.random(0, 3)
  for seat = 0, 3 do
    local hand = seat == out and 0 or math.random(1, 60)
    table.insert(fields, string.format("seat_%d-hand=%d", seat, hand))
  end
  table.insert(fields, "went_out=" .. out)
  return table.concat(fields, "&")
end

local function keep_cookie(game, headers)
  local cookie = headers["Set-Cookie"] or headers["set-cookie"]
  local session = cookie and cookie:match("^(session=[^;]+)")
  if session then game.cookie = session end
end

local function dump()
  local out = io.open(string.format("%s/thread-%d.json", os.getenv("EVENING_OUT"), thread_index), "w")
  local parts = {}
  for kind, list in pairs(times) do
    local texts = {}
    for i, ms in ipairs(list) do texts[i] = string.format("%.3f", ms) end
    table.insert(parts, string.format('"%s": [%s]', kind, table.concat(texts, ",")))
  end
  local counts = {}
  for key, n in pairs(statuses) do table.insert(counts, string.format('"%s": %d', key, n)) end
  out:write(string.format('{%s, "statuses": {%s}, "late": %d}\n', table.concat(parts, ", "),
    table.concat(counts, ", "), late))
  out:close()
end

function response(status, headers, body)
  local answered = current
  if not answered then return end
  current = nil
  if answered.kind == "poll" and status == 200 then
    answered.phone.etag = headers["ETag"] or headers["etag"]
  elseif answered.kind == "form" then
    keep_cookie(answered.game, headers)
    if status == 200 then
      pending = { game = answered.game, body = filled_in(body) }
    elseif status == 302 then
      answered.game.finished = true -- 13 rounds played: the form sends to the summary
    end
  elseif answered.kind == "save" then
    keep_cookie(answered.game, headers)
  end
  if dumped then return end
  local at = answered.due - started
  if now() - started >= warmup + seconds then
    dump() -- the measured time is over: what is still behind schedule was not answered in it
    dumped = true
  elseif at >= warmup then
    table.insert(times[answered.kind], (now() - answered.due) * 1000)
    local key = answered.kind .. " " .. status
    statuses[key] = (statuses[key] or 0) + 1
  end
end
