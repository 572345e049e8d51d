# Built-in workload: advance a five-body model of the Sun and the outer planets `steps` times.
steps = Rubyrig.param("steps", 10_000)

SOLAR_MASS = 4 * Math::PI**2
DAYS_PER_YEAR = 365.24

# One body with position, velocity (per year) and mass (in solar masses times SOLAR_MASS).
class Body
  attr_accessor :x, :y, :z, :vx, :vy, :vz, :mass

  def initialize(x, y, z, vx, vy, vz, mass)
    @x = x
    @y = y
    @z = z
    @vx = vx * DAYS_PER_YEAR
    @vy = vy * DAYS_PER_YEAR
    @vz = vz * DAYS_PER_YEAR
    @mass = mass * SOLAR_MASS
  end
end

def make_system
  [
    Body.new(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0),
    Body.new(4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
      1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05, 9.54791938424326609e-04),
    Body.new(8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
      -2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05, 2.85885980666130812e-04),
    Body.new(1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
      2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05, 4.36624404335156298e-05),
    Body.new(1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
      2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05, 5.15138902046611451e-05)
  ].tap { |bodies| offset_momentum(bodies) }
end

def offset_momentum(bodies)
  px = py = pz = 0.0
  bodies.each do |b|
    px += b.vx * b.mass
    py += b.vy * b.mass
    pz += b.vz * b.mass
  end
  sun = bodies.first
  sun.vx = -px / SOLAR_MASS
  sun.vy = -py / SOLAR_MASS
  sun.vz = -pz / SOLAR_MASS
end

def advance(bodies, dt)
  count = bodies.size
  i = 0
  while i < count
    a = bodies[i]
    j = i + 1
    while j < count
      b = bodies[j]
      dx = a.x - b.x
      dy = a.y - b.y
      dz = a.z - b.z
      distance_sq = dx * dx + dy * dy + dz * dz
      magnitude = dt / (distance_sq * Math.sqrt(distance_sq))
      a.vx -= dx * b.mass * magnitude
      a.vy -= dy * b.mass * magnitude
      a.vz -= dz * b.mass * magnitude
      b.vx += dx * a.mass * magnitude
      b.vy += dy * a.mass * magnitude
      b.vz += dz * a.mass * magnitude
      j += 1
    end
    i += 1
  end
  bodies.each do |body|
    body.x += dt * body.vx
    body.y += dt * body.vy
    body.z += dt * body.vz
  end
end

def energy(bodies)
  e = 0.0
  bodies.each_with_index do |a, i|
    e += 0.5 * a.mass * (a.vx * a.vx + a.vy * a.vy + a.vz * a.vz)
    bodies[(i + 1)..].each do |b|
      dx = a.x - b.x
      dy = a.y - b.y
      dz = a.z - b.z
      e -= (a.mass * b.mass) / Math.sqrt(dx * dx + dy * dy + dz * dz)
    end
  end
  e
end

Rubyrig.bench do
  bodies = make_system
  steps.times { advance(bodies, 0.01) }
  energy(bodies)
end
