-- One benchmark cell for wrk: the request to send, and a JSON summary when wrk is done.
-- wrk -s cell.lua URL -- METHOD PATH BODY MAX_ID   ("{id}" in PATH: a random id in 1..MAX_ID)

local method, path, body, max_id, fixed
local headers = {}

function init(args)
  method, path = args[1], args[2]
  body = (args[3] ~= nil and args[3] ~= "") and args[3] or nil
  max_id = tonumber(args[4] or "0") or 0
  if body then headers["Content-Type"] = "application/json" end
  math.randomseed(os.time() + math.floor(os.clock() * 1000000))
  if max_id == 0 then fixed = wrk.format(method, path, headers, body) end
end

function request()
  if fixed then return fixed end
  local target = path:gsub("{id}", tostring(math.random(1, max_id)))
  return wrk.format(method, target, headers, body)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests": %d, "duration_us": %d, "errors": {"connect": %d, "read": %d, "write": %d, ' ..
    '"status": %d, "timeout": %d}, "p50_us": %d, "p99_us": %d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
