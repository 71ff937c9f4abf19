package dev.apmagent.benchmark.render;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import javax.imageio.ImageIO;

/** A grouped bar chart drawn with java.awt into a PNG (headless): one group per category, one bar per series. */
final class BarChart {

    static final int WIDTH = 1000;
    static final int HEIGHT = 560;

    private static final Color[] PALETTE = {
            new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd),
            new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f)};

    private BarChart() {
    }

    /** {@code values[series][category]}; NaN leaves a gap. */
    static void write(Path file, String title, String subtitle, String yLabel, List<String> categories,
                      List<String> series, double[][] values) throws IOException {
        BufferedImage image = draw(title, subtitle, yLabel, categories, series, values);
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer available");
        }
    }

    static BufferedImage draw(String title, String subtitle, String yLabel, List<String> categories,
                              List<String> series, double[][] values) {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);

            double max = 0;
            for (double[] row : values) {
                for (double v : row) {
                    if (!Double.isNaN(v)) {
                        max = Math.max(max, v);
                    }
                }
            }
            double step = niceStep(max / 5);
            double axisMax = step * Math.max(1, Math.ceil(max / step));
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            int widestTick = g.getFontMetrics().stringWidth(tick(axisMax, step));
            int left = Math.max(90, widestTick + 44);
            int right = WIDTH - 30;
            int top = 78 + 18 * ((series.size() + 3) / 4);
            int bottom = HEIGHT - 60;

            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
            g.drawString(title, left, 26);
            if (!subtitle.isEmpty()) {
                g.setFont(new Font(Font.SANS_SERIF, Font.ITALIC, 12));
                g.drawString(subtitle, left, 44);
            }

            // legend, four entries per line
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            for (int s = 0; s < series.size(); s++) {
                int x = left + (s % 4) * 220;
                int y = 66 + (s / 4) * 18;
                g.setColor(PALETTE[s % PALETTE.length]);
                g.fillRect(x, y - 10, 12, 12);
                g.setColor(Color.BLACK);
                g.drawString(series.get(s), x + 18, y);
            }

            // grid and y ticks
            FontMetrics fm = g.getFontMetrics();
            g.setStroke(new BasicStroke(1f));
            for (int i = 0; i <= 5; i++) {
                double v = axisMax * i / 5;
                int y = bottom - (int) Math.round((bottom - top) * (v / axisMax));
                g.setColor(new Color(0xdddddd));
                g.drawLine(left, y, right, y);
                g.setColor(Color.BLACK);
                String t = tick(v, step);
                g.drawString(t, left - 8 - fm.stringWidth(t), y + 4);
            }
            g.drawLine(left, top, left, bottom);
            g.drawLine(left, bottom, right, bottom);

            AffineTransform saved = g.getTransform();
            g.rotate(-Math.PI / 2);
            g.drawString(yLabel, -(top + bottom) / 2 - fm.stringWidth(yLabel) / 2, 18);
            g.setTransform(saved);

            int groups = Math.max(1, categories.size());
            double groupWidth = (right - left) / (double) groups;
            double barWidth = groupWidth * 0.8 / Math.max(1, series.size());
            Font valueFont = new Font(Font.SANS_SERIF, Font.PLAIN, series.size() * groups > 24 ? 9 : 11);
            for (int c = 0; c < categories.size(); c++) {
                double x0 = left + c * groupWidth + groupWidth * 0.1;
                for (int s = 0; s < series.size(); s++) {
                    double v = values[s][c];
                    if (Double.isNaN(v)) {
                        continue;
                    }
                    int h = axisMax == 0 ? 0 : (int) Math.round((bottom - top) * (v / axisMax));
                    int x = (int) Math.round(x0 + s * barWidth);
                    int w = Math.max(1, (int) Math.round(barWidth) - 2);
                    g.setColor(PALETTE[s % PALETTE.length]);
                    g.fillRect(x, bottom - h, w, h);
                    g.setColor(Color.DARK_GRAY);
                    g.setFont(valueFont);
                    String t = ResultsRenderer.number(v);
                    int tw = g.getFontMetrics().stringWidth(t);
                    g.drawString(t, x + w / 2 - tw / 2, bottom - h - 3);
                }
                g.setColor(Color.BLACK);
                g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
                String cat = categories.get(c);
                int cw = g.getFontMetrics().stringWidth(cat);
                g.drawString(cat, (int) Math.round(left + c * groupWidth + groupWidth / 2 - cw / 2.0), bottom + 20);
            }
        } finally {
            g.dispose();
        }
        return image;
    }

    /** An axis tick with as many decimals as the step needs (0.25 steps: 2; 500 steps: none). */
    static String tick(double v, double step) {
        int decimals = step >= 1 ? 0 : (int) Math.ceil(-Math.log10(step) - 1e-9);
        return String.format(java.util.Locale.ROOT, "%,." + decimals + "f", v);
    }

    /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
    static double niceStep(double raw) {
        if (!(raw > 0)) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double r = raw / magnitude;
        double nice = r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10;
        return nice * magnitude;
    }
}
