# The listening sockets of processes, read from /proc (no tool needed): which TCP addresses and ports
# and which unix socket paths they accept connections on, so that tests can check that a server binds
# 127.0.0.1 only, or no TCP at all.
module Sockets
  Listener = Struct.new(:kind, :address, :port, :path, keyword_init: true)

  module_function

  # Every socket that one of `pids` listens on.
  def listening(pids)
    inodes = pids.flat_map { |pid| socket_inodes(pid) }.to_h { |inode| [inode, true] }
    tcp(inodes) + unix(inodes)
  end

  def socket_inodes(pid)
    Dir.glob("/proc/#{pid}/fd/*").filter_map do |fd|
      File.readlink(fd)[/\Asocket:\[(\d+)\]\z/, 1]
    rescue Errno::ENOENT, Errno::EACCES # closed meanwhile, or not ours to read
      nil
    end
  end

  # /proc/net/tcp(6) rows in state 0A (LISTEN); addresses are hex, in the host's byte order per word.
  def tcp(inodes)
    %w[tcp tcp6].flat_map do |file|
      File.readlines("/proc/net/#{file}").drop(1).filter_map do |row|
        fields = row.split
        next unless fields[3] == "0A" && inodes[fields[9]]
        hex, port = fields[1].split(":")
        Listener.new(kind: file, address: address(hex), port: port.to_i(16))
      end
    end
  end

  def address(hex)
    bytes = [hex].pack("H*").unpack("N*").pack("V*").bytes
    (bytes.size == 4) ? bytes.join(".") : bytes.each_slice(2).map { |a, b| format("%x", a * 256 + b) }.join(":")
  end

  # /proc/net/unix rows whose flags have __SO_ACCEPTCON (0x10000): sockets that accept connections.
  def unix(inodes)
    File.readlines("/proc/net/unix").drop(1).filter_map do |row|
      fields = row.split
      next unless inodes[fields[6]] && (fields[3].to_i(16) & 0x10000).positive?
      Listener.new(kind: "unix", path: fields[7])
    end
  end
end
